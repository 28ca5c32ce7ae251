import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { accountInputClass } from '@/components/ui/input'
import { TextField } from '@/components/ui/TextField'
import { showError, showSuccess } from '@/lib/dialogs'
import { useConfirmTotp } from '../api/confirm-totp'
import { useDisableTotp } from '../api/disable-totp'
import { useStartTotp } from '../api/start-totp'
import type { Account, TotpSetup } from '../api/types'
import { showApiError } from './errors'

/** groups splits a secret into groups of four, easier to copy by hand. */
function groups(secret: string) {
  return secret.match(/.{1,4}/g)?.join(' ') ?? secret
}

// TwoStepCard sets up, shows and turns off two-step verification (a code
// from an authenticator app at each sign-in with a password), for tutors
// who sign in with a password.
export function TwoStepCard({ mfa }: { mfa: Account['mfa'] }) {
  const [setup, setSetup] = useState<TotpSetup | null>(null)
  const [codes, setCodes] = useState<string[] | null>(null)
  if (!mfa.available && !mfa.enabled) return null
  return (
    <Card title="Verificación en dos pasos">
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />
      ) : mfa.enabled ? (
        <Enabled left={mfa.recoveryCodesLeft} />
      ) : setup ? (
        <Confirm setup={setup} onConfirmed={(c) => (setSetup(null), setCodes(c))} onCancel={() => setSetup(null)} />
      ) : (
        <Start onStarted={setSetup} />
      )}
    </Card>
  )
}

function Start({ onStarted }: { onStarted: (s: TotpSetup) => void }) {
  const [password, setPassword] = useState('')
  const start = useStartTotp()
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (!password) {
      void showError('Error', 'Escriba su contraseña actual.')
      return
    }
    start.mutate(password, { onSuccess: (s) => (setPassword(''), onStarted(s)), onError: (err) => void showApiError(err) })
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <p className="text-slate-700">
        Además de su contraseña, al ingresar se le pedirá un código de una aplicación de autenticación en su teléfono (Microsoft
        Authenticator, Google Authenticator u otra). Así, quien conozca su contraseña no podrá entrar sin su teléfono.
      </p>
      <TextField
        className={accountInputClass}
        label="Contraseña actual"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <Button type="submit" disabled={start.isPending}>
        Configurar
      </Button>
    </form>
  )
}

function Confirm({ setup, onConfirmed, onCancel }: { setup: TotpSetup; onConfirmed: (codes: string[]) => void; onCancel: () => void }) {
  const [code, setCode] = useState('')
  const confirm = useConfirmTotp()
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (!code.trim()) {
      void showError('Error', 'Escriba el código que muestra la aplicación.')
      return
    }
    confirm.mutate(code.trim(), {
      onSuccess: (r) => onConfirmed(r.recoveryCodes),
      onError: (err) => void showApiError(err, 'Código incorrecto'),
    })
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <ol className="list-decimal space-y-1 pl-5 text-slate-700">
        <li>Abra su aplicación de autenticación y agregue una cuenta.</li>
        <li>Escanee este código QR o, si no puede, escriba la clave que aparece debajo.</li>
        <li>Escriba el código de 6 dígitos que muestra la aplicación.</li>
      </ol>
      <img
        src={setup.qr}
        width={240}
        height={240}
        alt="Código QR para agregar el simulador a su aplicación de autenticación"
        className="rounded-lg ring-1 ring-slate-200"
      />
      <p className="text-slate-700">
        Clave para escribir a mano:{' '}
        <code data-testid="totp-secret" className="rounded bg-slate-100 px-2 py-1 font-mono text-slate-900 select-all">
          {groups(setup.secret)}
        </code>
      </p>
      <TextField
        className={accountInputClass}
        label="Código de 6 dígitos"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={confirm.isPending}>
          Activar
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancelar
        </Button>
      </div>
    </form>
  )
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'))
      void showSuccess('Códigos copiados', 'Péguelos en un lugar seguro, fuera de este computador si puede.')
    } catch {
      void showError('No se pudo copiar', 'Seleccione los códigos y cópielos a mano.')
    }
  }
  return (
    <div className="space-y-4">
      <Notice tone="success">La verificación en dos pasos está activa.</Notice>
      <Notice tone="warn">
        Guarde ahora estos códigos de recuperación: no se volverán a mostrar. Cada uno sirve una sola vez para ingresar si no tiene su
        teléfono.
      </Notice>
      <ol aria-label="Códigos de recuperación" className="grid max-w-md grid-cols-2 gap-2 font-mono text-slate-900">
        {codes.map((c) => (
          <li key={c} className="rounded bg-slate-100 px-3 py-1">
            {c}
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <Button variant="outline" onClick={() => void copy()}>
          Copiar códigos
        </Button>
        <Button onClick={onDone}>Ya los guardé</Button>
      </div>
    </div>
  )
}

function Enabled({ left }: { left: number }) {
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const disable = useDisableTotp()
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (!password || !code.trim()) {
      void showError('Error', 'Escriba su contraseña y un código de la aplicación o de recuperación.')
      return
    }
    disable.mutate(
      { password, code: code.trim() },
      {
        onSuccess: () => void showSuccess('Verificación desactivada', 'Desde ahora ingresa solo con su contraseña.'),
        onError: (err) => void showApiError(err, 'No se desactivó'),
      },
    )
  }
  return (
    <div className="space-y-4">
      <Notice tone="success">
        Activa: al ingresar con su contraseña se le pide un código. Le quedan {left} {left === 1 ? 'código' : 'códigos'} de recuperación.
      </Notice>
      <form onSubmit={onSubmit} className="space-y-4">
        <p className="text-slate-700">Para desactivarla escriba su contraseña y un código de la aplicación (o uno de recuperación).</p>
        <TextField
          className={accountInputClass}
          label="Contraseña actual"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <TextField
          className={accountInputClass}
          label="Código de verificación"
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
        <Button type="submit" variant="danger" disabled={disable.isPending}>
          Desactivar
        </Button>
      </form>
    </div>
  )
}
