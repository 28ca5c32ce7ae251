import { useEffect, useMemo, useState } from 'react'
import { Link, useParams } from 'react-router-dom'
import { useQueryClient } from '@tanstack/react-query'
import { buttonClass } from '@/components/ui/Button'
import { Notice } from '@/components/ui/Notice'
import { PageHeader } from '@/components/ui/PageHeader'
import { PageSpinner } from '@/components/ui/Spinner'
import { useSession } from '@/features/auth/api/get-session'
import { useAttempt } from '@/features/attempts/api/get-attempt'
import { attemptKeys } from '@/lib/attempts'
import { AttemptResult } from '@/features/attempts/components/AttemptResult'
import { UploadStatusLine } from '@/features/test/components/UploadStatusLine'
import { paths } from '@/lib/paths'
import { resumeIfFree } from '@/features/test/lib/attempt-lock'
import { pendingAttemptIds } from '@/features/test/recording/store'
import { getUploadQueue, useUploadStatus } from '@/features/test/recording/uploader'
import { ApiError } from '@/lib/api-client'
import { AuthNav } from '@/components/layout/AuthNav'

// AttemptResultPage is /auth/historial/:id: one attempt's result.
export function AttemptResultPage() {
  const { id = '' } = useParams()
  const q = useAttempt(id)
  const { data: session } = useSession()
  const a = q.data
  const own = !!a && !!session?.user && a.student.id === session.user.id

  return (
    <>
      <PageHeader title={a ? a.case.title : 'Intento'} subtitle={a ? `${a.degreeName} · ${a.case.area}` : undefined}>
        <AuthNav />
      </PageHeader>
      <div className="mx-auto max-w-6xl space-y-6 px-4 py-10 sm:px-6">
        {q.isPending && <PageSpinner />}
        {q.isError && (
          <Notice tone="error">
            {q.error instanceof ApiError && q.error.status === 404
              ? 'El intento no existe.'
              : `No se pudo cargar el intento. ${q.error.message}`}
          </Notice>
        )}
        {a?.status === 'in_progress' && own && (
          <Notice tone="warn">
            <p>Este intento está en curso.</p>
            <Link to={paths.attempt(a.id)} className={buttonClass('primary', 'mt-3')}>
              Continuar intento
            </Link>
          </Notice>
        )}
        {own && a && a.status !== 'in_progress' && <PendingUploads attemptId={a.id} />}
        {a && <AttemptResult attempt={a} canDelete={own} />}
        <Link to={paths.historial} className="inline-block font-semibold text-brand-700 underline">
          Volver al historial
        </Link>
      </div>
    </>
  )
}

// PendingUploads finishes sending what this browser still holds of the
// attempt (e.g. the last seconds of the closing) and refreshes the result.
function PendingUploads({ attemptId }: { attemptId: string }) {
  const [pending, setPending] = useState(false)
  const qc = useQueryClient()
  useEffect(() => {
    let alive = true
    pendingAttemptIds()
      .then((ids) => {
        if (alive && ids.includes(attemptId)) setPending(true)
      })
      .catch(() => undefined)
    return () => {
      alive = false
    }
  }, [attemptId])
  const queue = useMemo(() => (pending ? getUploadQueue(attemptId) : null), [pending, attemptId])
  const status = useUploadStatus(queue)
  useEffect(() => {
    if (!queue) return
    let alive = true
    void resumeIfFree(attemptId, queue)
      .then((resumed) => (resumed ? queue.flush() : undefined))
      .then(() => {
        if (alive) void qc.invalidateQueries({ queryKey: attemptKeys.one(attemptId) })
      })
      .catch(() => undefined)
    return () => {
      alive = false
    }
  }, [queue, attemptId, qc])
  if (!queue) return null
  const done = status.pendingChunks === 0 && status.pendingRecordings === 0
  return done ? null : <UploadStatusLine queue={queue} />
}
