import { Link, useLocation, useParams } from 'react-router-dom'
import { Button, buttonClass } from '@/components/ui/Button'
import { Notice } from '@/components/ui/Notice'
import { PageHeader } from '@/components/ui/PageHeader'
import { PageSpinner, Spinner } from '@/components/ui/Spinner'
import { modeName } from '@/lib/attempts'
import type { Attempt } from '@/types/api'
import { useSession } from '@/features/auth/api/get-session'
import { ApiError } from '@/lib/api-client'
import { useRunnerAttempt } from '../api/attempt-actions'
import { AttemptRunner } from '../components/AttemptRunner'
import { FinishedAttempt } from '../components/FinishedAttempt'
import { useAttemptLock } from '../lib/attempt-lock'
import { paths } from '@/lib/paths'

// AttemptPage is /test/intento/:id: it runs the attempt's phases as the
// server states them, then shows the comparison with the case.
export function AttemptPage() {
  const { id = '' } = useParams()
  const q = useRunnerAttempt(id)
  const a = q.data
  const { data: session } = useSession()
  // Set by the start page after a directed draw ("Sorteo dirigido").
  const directedReason = (useLocation().state as { directedReason?: string } | null)?.directedReason

  if (q.isPending) return <PageSpinner />
  if (!a) {
    const notFound = q.error instanceof ApiError && q.error.status === 404
    return (
      <>
        <PageHeader title="Simulador" />
        <div className="mx-auto max-w-6xl space-y-4 px-4 py-8 sm:px-6">
          <Notice tone="error">{notFound ? 'El intento no existe.' : `No se pudo cargar el intento. ${q.error?.message ?? ''}`}</Notice>
          <Link to={paths.test} className={buttonClass('outline')}>
            Volver al simulador
          </Link>
        </div>
      </>
    )
  }

  return (
    <>
      <PageHeader title={`${modeName(a.mode)}: ${a.case.title}`} subtitle={`${a.degreeName} · ${a.case.area}`} />
      <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
        {directedReason && a.status === 'in_progress' && (
          <div className="mb-4">
            <Notice tone="info">
              <p className="font-semibold">Sorteo dirigido</p>
              <p className="mt-1">{directedReason}</p>
            </Notice>
          </div>
        )}
        {a.status === 'in_progress' && session?.user && a.student.id !== session.user.id && (
          <div className="space-y-4">
            <Notice tone="info">Este intento es de {a.student.displayName || a.student.mail}; solo su estudiante puede realizarlo.</Notice>
            <Link to={paths.result(a.id)} className={buttonClass('outline')}>
              Ver el intento
            </Link>
          </div>
        )}
        {a.status === 'in_progress' && session?.user && a.student.id === session.user.id && <RunnerGate key={a.id} a={a} />}
        {a.status === 'finished' && <FinishedAttempt a={a} />}
        {a.status === 'abandoned' && (
          <div className="space-y-4">
            <Notice tone="warn">Este intento fue abandonado. Lo grabado hasta ese momento se conserva.</Notice>
            <div className="flex flex-wrap gap-3">
              <Link to={paths.result(a.id)} className={buttonClass('outline')}>
                Ver el intento
              </Link>
              <Link to={paths.test} className={buttonClass('primary')}>
                Practicar de nuevo
              </Link>
            </div>
          </div>
        )}
      </div>
    </>
  )
}

// RunnerGate runs the attempt in one tab only (see lib/attempt-lock).
function RunnerGate({ a }: { a: Attempt }) {
  const lock = useAttemptLock(a.id)
  if (lock.state === 'waiting') return <Spinner label="Preparando el intento…" />
  if (lock.state === 'busy')
    return (
      <div className="space-y-4">
        <Notice tone="warn">
          <p className="font-semibold">Este intento está abierto en otra pestaña o ventana.</p>
          <p className="mt-1">Continúe allí, o ciérrela y pulse «Reintentar» para seguir aquí. Así ninguna grabación se pierde.</p>
        </Notice>
        <Button onClick={lock.retry}>Reintentar</Button>
      </div>
    )
  return <AttemptRunner a={a} />
}
