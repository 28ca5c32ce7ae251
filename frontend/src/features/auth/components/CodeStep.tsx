import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { signInInputClass } from '@/components/ui/input'
import { TextField } from '@/components/ui/TextField'
import { ApiError } from '@/lib/api-client'
import { showError } from '@/lib/dialogs'
import { useLoginCode } from '../api/login'

// CodeStep is the second step of a sign-in whose password was right: a
// code from the authenticator app, or a recovery code. The server keeps
// the pending sign-in (five minutes, five codes); "Volver" starts over.
export function CodeStep({ onDone, onRestart }: { onDone: () => void; onRestart: () => void }) {
  const id = useId()
  const [code, setCode] = useState('')
  const mutation = useLoginCode()

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (!code.trim()) {
      void showError('Error', 'Escriba el código de verificación.')
      return
    }
    mutation.mutate(code.trim(), {
      onSuccess: onDone,
      onError: (err) => {
        if (err instanceof ApiError && err.code === 'mfa_expired') {
          void showError('Verificación vencida', err.message).then(onRestart)
        } else if (err instanceof ApiError && err.code === 'invalid_code') {
          setCode('')
          void showError('Código incorrecto', err.message)
        } else if (err instanceof ApiError && err.status === 429) {
          void showError('Demasiados intentos', err.message)
        } else {
          void showError('Error', err instanceof Error ? err.message : 'Ocurrió un error inesperado. Intente de nuevo.')
        }
      },
    })
  }

  return (
    <form onSubmit={onSubmit} className="space-y-5" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-bold text-brand-800">
        Verificación en dos pasos
      </h2>
      <TextField
        className={signInInputClass}
        label="Código de verificación"
        hint="Escriba el código de 6 dígitos de su aplicación de autenticación o uno de sus códigos de recuperación."
        name="code"
        autoComplete="one-time-code"
        autoFocus
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <Button type="submit" className="w-full" disabled={mutation.isPending}>
        {mutation.isPending ? 'Verificando…' : 'Verificar'}
      </Button>
      <Button variant="ghost" className="w-full" onClick={onRestart}>
        Volver
      </Button>
    </form>
  )
}
