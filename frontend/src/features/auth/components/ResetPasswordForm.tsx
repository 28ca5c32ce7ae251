import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { signInInputClass } from '@/components/ui/input'
import { TextField } from '@/components/ui/TextField'
import { ApiError } from '@/lib/api-client'
import { showError, showSuccess } from '@/lib/dialogs'
import { useResetPassword } from '../api/password-reset'

// ResetPasswordForm is what a reset link opens (/login#restablecer=TOKEN):
// the student chooses a new password, once. Every session they had ends.
export function ResetPasswordForm({ token, onDone }: { token: string; onDone: () => void }) {
  const id = useId()
  const [password, setPassword] = useState('')
  const [again, setAgain] = useState('')
  const mutation = useResetPassword()

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (!password || !again) {
      void showError('Error', 'Escriba la nueva contraseña dos veces.')
      return
    }
    if (password !== again) {
      void showError('Las contraseñas no coinciden', 'Escriba la misma contraseña en los dos campos.')
      return
    }
    mutation.mutate(
      { token, password },
      {
        onSuccess: () => void showSuccess('Contraseña actualizada', 'Ya puede ingresar con su correo y la nueva contraseña.').then(onDone),
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'weak_password') {
            void showError('Contraseña no válida', err.message)
          } else if (err instanceof ApiError && err.code.startsWith('reset_link_')) {
            void showError('Enlace no válido', err.message).then(onDone)
          } else if (err instanceof ApiError && err.status === 429) {
            void showError('Demasiados intentos', err.message)
          } else {
            void showError('Error', err instanceof Error ? err.message : 'Ocurrió un error inesperado. Intente de nuevo.')
          }
        },
      },
    )
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-bold text-brand-800">
        Nueva contraseña
      </h2>
      <p className="text-sm text-slate-700">
        Elija una contraseña de al menos 8 caracteres que no use en otros sitios. Al guardarla se cerrarán sus sesiones abiertas.
      </p>
      <TextField
        className={signInInputClass}
        label="Nueva contraseña"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <TextField
        className={signInInputClass}
        label="Repita la nueva contraseña"
        type="password"
        autoComplete="new-password"
        value={again}
        onChange={(e) => setAgain(e.target.value)}
      />
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? 'Guardando…' : 'Guardar contraseña'}
      </Button>
    </form>
  )
}
