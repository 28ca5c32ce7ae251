import { useId, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { showApiError } from '@/lib/errors'
import { useCorrectTranscript } from '../api/put-transcript'
import type { Segment, Transcript, TranscriptSource } from '@/types/api'
import { inputBase } from '@/components/ui/input'

export const sourceName: Record<TranscriptSource, string> = {
  browser: 'Reconocimiento de voz del navegador',
  server: 'Transcripción del servidor',
  edited: 'Corregida a mano',
}

const clock = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000))
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

type Props = {
  attemptId: string
  recordingId: string
  transcript: Transcript | null
  /** Moves the recording to ms (the segment's start). */
  onSeek?: (ms: number) => void
  canEdit: boolean
}

// TranscriptView shows a recording's transcript with timestamps; clicking a
// segment plays the recording from there. The student and their tutor may
// correct it; the measures are recomputed by the server.
export function TranscriptView({ attemptId, recordingId, transcript, onSeek, canEdit }: Props) {
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState<Segment[]>([])
  const correct = useCorrectTranscript()
  const id = useId()

  const startEdit = () => {
    setDraft(transcript?.segments.length ? transcript.segments.map((s) => ({ ...s })) : [{ startMs: 0, endMs: 0, text: '' }])
    setEditing(true)
  }
  const save = async () => {
    try {
      await correct.mutateAsync({
        attemptId,
        recordingId,
        language: transcript?.language,
        segments: draft.filter((s) => s.text.trim() !== ''),
      })
      setEditing(false)
    } catch (err) {
      await showApiError(err)
    }
  }

  if (editing) {
    return (
      <div className="space-y-2">
        {draft.map((s, i) => (
          <div key={i}>
            <label htmlFor={`${id}-${i}`} className="text-xs text-slate-600">
              Segmento {i + 1} ({clock(s.startMs)})
            </label>
            <textarea
              id={`${id}-${i}`}
              rows={2}
              value={s.text}
              onChange={(e) => setDraft((d) => d.map((x, j) => (j === i ? { ...x, text: e.target.value } : x)))}
              className={`block w-full ${inputBase} px-2 py-1 text-sm`}
            />
          </div>
        ))}
        <div className="flex gap-2">
          <Button onClick={() => void save()} disabled={correct.isPending}>
            Guardar corrección
          </Button>
          <Button variant="ghost" onClick={() => setEditing(false)}>
            Cancelar
          </Button>
        </div>
      </div>
    )
  }

  return (
    <div>
      {transcript && transcript.segments.length > 0 ? (
        <>
          <p className="text-xs text-slate-600">{sourceName[transcript.source]}</p>
          <ol className="mt-1 space-y-1 text-sm">
            {transcript.segments.map((s, i) => (
              <li key={i} className="flex gap-2">
                <button
                  type="button"
                  onClick={() => onSeek?.(s.startMs)}
                  disabled={!onSeek}
                  className="shrink-0 rounded px-1 font-mono text-brand-700 underline disabled:no-underline"
                  aria-label={`Escuchar desde ${clock(s.startMs)}`}
                >
                  {clock(s.startMs)}
                </button>
                <span>{s.text}</span>
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p className="text-sm text-slate-600">Sin transcripción.</p>
      )}
      {canEdit && (
        <Button variant="ghost" className="mt-2 px-2 text-sm" onClick={startEdit}>
          {transcript?.segments.length ? 'Corregir transcripción' : 'Escribir transcripción'}
        </Button>
      )}
    </div>
  )
}
