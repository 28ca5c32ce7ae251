import { useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router-dom'
import { ensureConfig, type AppConfig } from '@/lib/config'
import { ApiError } from '@/lib/api-client'
import { showError, showInfo } from '@/lib/dialogs'
import { paths } from '@/lib/paths'
import { consumeRedirect } from '@/lib/storage'
import { MicrosoftNotConfiguredError, useMicrosoftLogin } from '../api/microsoft-login'

// useMicrosoftSignIn starts the university-account popup. A new user goes to
// /auth/carreras; a returning one to the saved location or /auth/carreras. A
// failed or cancelled popup is silently ignored (docs/product.md, "Public
// pages and sign-in"); only an account the server cannot match to a
// profile (no address the university verifies) is explained.
//
// isPending is true only while talking to the server: while the popup is
// open the button stays usable, because MSAL cannot tell that the user
// closed the popup, and pressing again starts a new sign-in at once.
export function useMicrosoftSignIn({ onNotConfigured }: { onNotConfigured?: () => void } = {}) {
  const qc = useQueryClient()
  const navigate = useNavigate()
  const mutation = useMicrosoftLogin()
  const [popupOpen, setPopupOpen] = useState(false)
  const attempt = useRef(0)
  const isPending = mutation.isPending && !popupOpen

  // The press waits for the configuration (ensureConfig) rather than telling
  // the user the sign-in is not configured while it is still on its way.
  const start = () => {
    void ensureConfig(qc).then(begin, (err: unknown) => console.warn('Inicio de sesión con Microsoft no completado', err))
  }

  const begin = (config: AppConfig) => {
    if (!config.microsoft.enabled) {
      void showInfo(
        'Cuenta institucional no disponible',
        'El inicio de sesión con la cuenta institucional (UTPL) no está configurado en este servidor. Ingrese con su correo y contraseña.',
      ).then(() => onNotConfigured?.())
      return
    }
    if (isPending) return
    // A restarted sign-in's predecessor settles later; only the latest
    // attempt may say whether its popup is open.
    const id = ++attempt.current
    const onPopup = (open: boolean) => {
      if (attempt.current === id) setPopupOpen(open)
    }
    mutation.mutate(
      { config: config.microsoft, onPopup },
      {
        onSuccess: (res) => {
          // Consumed in both cases: a location left behind would send a
          // later sign-in in this tab somewhere it did not ask for.
          const saved = consumeRedirect()
          navigate(res.created ? paths.carreras : (saved ?? paths.carreras))
        },
        onError: (err) => {
          if (err instanceof MicrosoftNotConfiguredError) return
          console.warn('Inicio de sesión con Microsoft no completado', err)
          // A valid account the server cannot match to a profile is told
          // why; any other failure stays silent.
          if (err instanceof ApiError && err.code === 'microsoft_unverified_email') {
            void showError('No se pudo vincular su cuenta', err.message)
          }
        },
      },
    )
  }
  return { start, isPending }
}
