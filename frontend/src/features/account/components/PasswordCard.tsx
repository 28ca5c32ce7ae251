import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { accountInputClass } from '@/components/ui/input'
import { TextField } from '@/components/ui/TextField'
import { showError, showSuccess } from '@/lib/dialogs'
import { useChangePassword } from '../api/change-password'
import { showApiError } from './errors'

// PasswordCard changes the user's password: the current one, the new one
// twice. The other sessions end; this one stays.
export function PasswordCard({ hasPassword }: { hasPassword: boolean }) {
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [again, setAgain] = useState('')
  const change = useChangePassword()

  if (!hasPassword) {
    return (
      <Card title="Contraseña">
        <Notice>Usted ingresa con su cuenta institucional (Microsoft): su contraseña se administra en la universidad, no aquí.</Notice>
      </Card>
    )
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (!current || !next || !again) {
      void showError('Error', 'Complete los tres campos.')
      return
    }
    if (next !== again) {
      void showError('Las contraseñas no coinciden', 'Escriba la misma contraseña nueva en los dos campos.')
      return
    }
    change.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: ({ sessionsEnded }) => {
          setCurrent('')
          setNext('')
          setAgain('')
          const others =
            sessionsEnded === 0
              ? 'No tenía otras sesiones abiertas.'
              : sessionsEnded === 1
                ? 'Se cerró 1 sesión en otro dispositivo.'
                : `Se cerraron ${sessionsEnded} sesiones en otros dispositivos.`
          void showSuccess('Contraseña actualizada', `${others} Esta sesión sigue abierta.`)
        },
        onError: (err) => void showApiError(err, 'No se cambió la contraseña'),
      },
    )
  }

  return (
    <Card title="Contraseña">
      <form onSubmit={onSubmit} className="space-y-4">
        <p className="text-slate-700">Al cambiarla se cierran sus sesiones en otros dispositivos; esta sesión sigue abierta.</p>
        <TextField
          className={accountInputClass}
          label="Contraseña actual"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <TextField
          className={accountInputClass}
          label="Nueva contraseña"
          hint="Al menos 8 caracteres; no use una contraseña común ni su correo."
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        <TextField
          className={accountInputClass}
          label="Repita la nueva contraseña"
          type="password"
          autoComplete="new-password"
          value={again}
          onChange={(e) => setAgain(e.target.value)}
        />
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? 'Guardando…' : 'Cambiar contraseña'}
        </Button>
      </form>
    </Card>
  )
}
