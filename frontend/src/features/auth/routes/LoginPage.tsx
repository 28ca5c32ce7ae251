import { useId, useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router-dom'
import { Button } from '@/components/ui/Button'
import { PageHeader } from '@/components/ui/PageHeader'
import { ApiError } from '@/lib/api-client'
import { showError } from '@/lib/dialogs'
import { paths } from '@/lib/paths'
import { consumeRedirect } from '@/lib/storage'
import { useSession } from '../api/get-session'
import { useLogin } from '../api/login'
import { useMicrosoftSignIn } from '../components/useMicrosoftSignIn'

export function LoginPage() {
  const emailId = useId()
  const passwordId = useId()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const navigate = useNavigate()
  const { data: session } = useSession()
  const login = useLogin()
  const microsoft = useMicrosoftSignIn()

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (!email.trim() || !password) {
      void showError('Error', 'Debe ingresar un correo y contraseña')
      return
    }
    login.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => navigate(consumeRedirect() ?? paths.carreras),
        onError: (err) => {
          if (err instanceof ApiError && err.code === 'invalid_credentials') {
            void showError('Oops...', 'El correo o la constraseña son incorrectos')
          } else if (err instanceof ApiError && err.code === 'missing_credentials') {
            void showError('Error', 'Debe ingresar un correo y contraseña')
          } else if (err instanceof ApiError && err.code === 'too_many_attempts') {
            void showError('Demasiados intentos', err.message)
          } else {
            void showError('Error', err instanceof Error ? err.message : 'Ocurrió un error inesperado. Intente de nuevo.')
          }
        },
      },
    )
  }

  const input =
    'mt-1 block w-full rounded-lg border border-slate-400 bg-white px-3 py-2.5 text-slate-900 shadow-sm focus:border-brand-600 focus:ring-2 focus:ring-brand-200 focus:outline-none'

  return (
    <>
      <PageHeader title="Iniciar sesión" subtitle="Ingrese para practicar el examen complexivo oral o para administrar su grupo." />
      <div className="mx-auto max-w-md px-4 py-10">
        <div className="rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200 sm:p-8">
          <form onSubmit={onSubmit} className="space-y-5">
            <div>
              <label htmlFor={emailId} className="block font-medium text-slate-800">
                Correo Electrónico
              </label>
              <input
                id={emailId}
                name="email"
                type="email"
                autoComplete="email"
                inputMode="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                className={input}
              />
            </div>
            <div>
              <label htmlFor={passwordId} className="block font-medium text-slate-800">
                Contraseña
              </label>
              <input
                id={passwordId}
                name="password"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                className={input}
              />
            </div>
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
        </div>
      </div>
    </>
  )
}
