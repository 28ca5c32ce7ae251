import { Button } from '@/components/ui/Button'
import type { Attempt } from '@/types/api'
import { showApiError } from '@/lib/errors'
import type { ScoreStatus } from '../api/lti-types'
import { useScoreStatus, useSendScore } from '../api/score-status'

const labels: Record<ScoreStatus['state'], string> = {
  none: '',
  unlinked: 'El grupo no tiene una columna del curso vinculada (página Grupo).',
  unsent: 'No enviada al curso',
  pending: 'Pendiente',
  sent: 'Enviada al curso',
  error: 'Error',
}

// ScoreSync says whether a graded Simulacro's grade reached the course's
// gradebook (groups loaded from a course, docs/lti.md), and sends it again
// on request.
export function ScoreSync({ attempt }: { attempt: Attempt }) {
  const gradedAt = attempt.tutorGrade?.at ?? ''
  const status = useScoreStatus(attempt.id, gradedAt)
  const send = useSendScore()
  const st = status.data
  if (attempt.mode !== 'simulacro' || !attempt.tutorGrade || !st || st.state === 'none') return null
  const text = st.state === 'error' ? `Error: ${st.error ?? ''}` : labels[st.state]
  const canSend = st.state === 'unsent' || st.state === 'sent' || st.state === 'error'
  const onSend = async () => {
    try {
      await send.mutateAsync({ attemptId: attempt.id, gradedAt })
    } catch (err) {
      await showApiError(err)
    }
  }
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3 rounded-xl border border-slate-200 p-3" aria-live="polite">
      <p>
        <span className="text-slate-600">Calificación en el curso{st.column ? ` («${st.column}»)` : ''}: </span>
        <strong className={st.state === 'error' ? 'text-red-800' : st.state === 'sent' ? 'text-green-800' : 'text-slate-900'}>
          {text}
        </strong>
        {st.state === 'pending' && st.error && <span className="block text-sm text-slate-600">Último intento: {st.error}</span>}
      </p>
      {canSend && (
        <Button variant="ghost" onClick={() => void onSend()} disabled={send.isPending}>
          {st.state === 'unsent' ? 'Enviar al curso' : 'Reenviar'}
        </Button>
      )}
    </div>
  )
}
