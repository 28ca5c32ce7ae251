import { useEffect, useState, type FormEvent } from 'react'
import { useLocation, useNavigate } from 'react-router-dom'
import { Button } from '@/components/ui/Button'
import { signInInputClass } from '@/components/ui/input'
import { PageHeader } from '@/components/ui/PageHeader'
import { TextField } from '@/components/ui/TextField'
import { ApiError } from '@/lib/api-client'
import { showError } from '@/lib/dialogs'
import { paths } from '@/lib/paths'
import { consumeRedirect } from '@/lib/storage'
import { useSession } from '../api/get-session'
import { useLogin } from '../api/login'
import { resetTokenFrom } from '../api/password-reset'
import { CodeStep } from '../components/CodeStep'
import { ResetPasswordForm } from '../components/ResetPasswordForm'
import { useMicrosoftSignIn } from '../lib/use-microsoft-sign-in'

// LoginPage is /login: e-mail and password, then a code when the account
// has two-step verification; the Microsoft button; and, when opened from
// a reset link (/login#restablecer=TOKEN), the "Nueva contraseña" form.
// The second step and the reset form are small and stay in this bundle:
// loading them on demand split the shared code into more chunks and cost
// /inicio more than it saved.
export function LoginPage() {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [step, setStep] = useState<'password' | 'code'>('password')
  const navigate = useNavigate()
  const location = useLocation()
  const [resetToken, setResetToken] = useState(() => resetTokenFrom(location.hash))
  const { data: session } = useSession()
  const login = useLogin()
  const microsoft = useMicrosoftSignIn()

  // A reset link's token leaves the address bar (and the history) at once.
  useEffect(() => {
    if (resetTokenFrom(location.hash)) navigate({ pathname: location.pathname, search: location.search }, { replace: true })
  }, [location.hash, location.pathname, location.search, navigate])

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (!email.trim() || !password) {
      void showError('Error', 'Debe ingresar un correo y contraseña')
      return
    }
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: (res) => {
          if (res.mfaRequired) {
            setPassword('')
            setStep('code')
            return
          }
          navigate(consumeRedirect() ?? paths.carreras)
        },
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'invalid_credentials') {
            void showError('Oops...', 'El correo o la constraseña son incorrectos')
          } else if (err instanceof ApiError && err.code === 'missing_credentials') {
            void showError('Error', 'Debe ingresar un correo y contraseña')
          } else if (err instanceof ApiError && err.code === 'too_many_attempts') {
            void showError('Demasiados intentos', err.message)
          } else if (err instanceof ApiError && err.code === 'tutor_requires_microsoft') {
            void showError('Use su cuenta institucional', err.message)
          } else {
            void showError('Error', err instanceof Error ? err.message : 'Ocurrió un error inesperado. Intente de nuevo.')
          }
        },
      },
    )
  }

  const other = resetToken ? (
    <ResetPasswordForm token={resetToken} onDone={() => setResetToken(null)} />
  ) : step === 'code' ? (
    <CodeStep onDone={() => navigate(consumeRedirect() ?? paths.carreras)} onRestart={() => setStep('password')} />
  ) : null

  return (
    <>
      <PageHeader title="Iniciar sesión" subtitle="Ingrese para practicar el examen complexivo oral o para administrar su grupo." />
      <div className="mx-auto max-w-md px-4 py-10">
        <div className="rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200 sm:p-8">
          {other ?? (
            <>
              <form onSubmit={onSubmit} className="space-y-5">
                <TextField
                  className={signInInputClass}
                  label="Correo Electrónico"
                  name="email"
                  type="email"
                  autoComplete="email"
                  inputMode="email"
                  value={email}
                  onChange={(e) => setEmail(e.target.value)}
                />
                <TextField
                  className={signInInputClass}
                  label="Contraseña"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                />
                <Button type="submit" className="w-full" disabled={login.isPending}>
                  {login.isPending ? 'Verificando…' : 'Continuar'}
                </Button>
              </form>
              {!session?.user && (
                <>
                  <div className="my-6 flex items-center gap-3 text-sm text-slate-600" aria-hidden="true">
                    <span className="h-px flex-1 bg-slate-300" />o<span className="h-px flex-1 bg-slate-300" />
                  </div>
                  <Button variant="outline" className="w-full" onClick={microsoft.start} disabled={microsoft.isPending}>
                    <svg aria-hidden="true" viewBox="0 0 23 23" className="size-5">
                      <path fill="#f35325" d="M1 1h10v10H1z" />
                      <path fill="#81bc06" d="M12 1h10v10H12z" />
                      <path fill="#05a6f0" d="M1 12h10v10H1z" />
                      <path fill="#ffba08" d="M12 12h10v10H12z" />
                    </svg>
                    Iniciar con UTPL
                  </Button>
                  <p className="mt-3 text-center text-sm text-slate-600">Use su cuenta institucional de Microsoft.</p>
                </>
              )}
            </>
          )}
        </div>
      </div>
    </>
  )
}
