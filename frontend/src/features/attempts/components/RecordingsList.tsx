import { Button } from '@/components/ui/Button'
import { RecordingWithTranscript } from '@/features/transcripts/components/RecordingWithTranscript'
import { confirmAction } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { useDeleteRecording } from '../api/delete-recording'
import { phaseName } from '@/lib/attempts'
import type { Attempt, Recording } from '@/types/api'

// recordingLabels names each recording by its phase, and by part when a
// phase has several (a reload in the middle of it).
export function recordingLabels(attempt: Pick<Attempt, 'phases'>, recordings: Recording[]): { recording: Recording; label: string }[] {
  const ordered = [...recordings].sort((a, b) => a.phase - b.phase || a.createdAt.localeCompare(b.createdAt))
  const count = new Map<number, number>()
  for (const r of ordered) count.set(r.phase, (count.get(r.phase) ?? 0) + 1)
  const seen = new Map<number, number>()
  return ordered.map((r) => {
    const n = (seen.get(r.phase) ?? 0) + 1
    seen.set(r.phase, n)
    const p = attempt.phases[r.phase]
    const name = p ? phaseName(p) : `Fase ${r.phase + 1}`
    return { recording: r, label: (count.get(r.phase) ?? 0) > 1 ? `${name}, parte ${n}` : name }
  })
}

// lateNote tells the student and the tutor that a take reached the server
// after its phase ended (a lagging upload, or recorded afterwards).
export const lateNote = 'Registrada después de terminar su fase.'

// RecordingsList shows every recording of an attempt with its transcript.
// The student may delete a recording (the attempt keeps its scores); the
// student and the group's tutor may correct a transcript.
export function RecordingsList({
  attempt: a,
  canDelete,
  canEditTranscripts,
}: {
  attempt: Attempt
  canDelete: boolean
  canEditTranscripts: boolean
}) {
  const del = useDeleteRecording()
  const recordings = recordingLabels(a, a.recordings)

  const onDelete = async (r: Recording, label: string) => {
    const ok = await confirmAction(
      '¿Eliminar la grabación?',
      `Se borrará de forma permanente el audio de «${label}». El intento conserva sus calificaciones.`,
      'Sí, eliminar',
    )
    if (!ok) return
    del.mutate({ attemptId: a.id, recordingId: r.id }, { onError: (e) => void showApiError(e, 'No se pudo eliminar la grabación') })
  }

  if (recordings.length === 0) return <p className="text-slate-700">Este intento no tiene grabaciones.</p>
  return (
    <ul className="space-y-4">
      {recordings.map(({ recording: r, label }) => (
        <li key={r.id} className="space-y-2">
          <RecordingWithTranscript
            attemptId={a.id}
            recording={r}
            transcript={r.transcript ?? null}
            label={label}
            canEdit={canEditTranscripts}
          />
          {r.late && (
            <p className="text-sm text-amber-900">
              <span className="sr-only">{label}: </span>
              {lateNote}
            </p>
          )}
          {canDelete && !r.deleted && (
            <Button
              variant="outline"
              className="min-h-9 border-red-700 px-3 py-1.5 text-sm text-red-800 hover:bg-red-50"
              disabled={del.isPending && del.variables?.recordingId === r.id}
              onClick={() => void onDelete(r, label)}
            >
              Eliminar grabación<span className="sr-only"> de {label}</span>
            </Button>
          )}
        </li>
      ))}
    </ul>
  )
}
