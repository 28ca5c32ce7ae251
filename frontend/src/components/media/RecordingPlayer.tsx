import { type Ref, useEffect, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { fileExtension, isWebm } from '@/lib/mime'
import type { Recording } from '@/types/api'

// RecordingPlayer plays one recording of an attempt. It is only used by
// lazily loaded sections (/auth/historial, /admin grading, /test results):
// do not import it from shared code, so it stays out of the /inicio bundle.
//
// MediaRecorder writes WebM without a duration, so a browser cannot seek in
// it or show its length; the media is fetched whole and the duration the
// recorder measured is patched in (fix-webm-duration) before playback.

type State = { kind: 'loading' } | { kind: 'ready'; url: string; mimeType: string } | { kind: 'deleted' } | { kind: 'error' }

export interface RecordingPlayerProps {
  attemptId: string
  recording: Recording
  label?: string // e.g. "Exposición, parte 1"
  /** The audio element, for callers that seek it (a transcript's timestamps). */
  audioRef?: Ref<HTMLAudioElement>
}

export function formatClock(ms: number) {
  const total = Math.max(0, Math.round(ms / 1000))
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`
}

export function RecordingPlayer({ attemptId, recording, label, audioRef }: RecordingPlayerProps) {
  const [state, setState] = useState<State>({ kind: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const { id, deleted, durationMs, mimeType } = recording

  useEffect(() => {
    if (deleted) return
    const ctl = new AbortController()
    let url: string | null = null
    let alive = true
    setState({ kind: 'loading' })
    ;(async () => {
      try {
        const path = `/api/attempts/${encodeURIComponent(attemptId)}/recordings/${encodeURIComponent(id)}/media`
        const res = await fetch(path, { credentials: 'same-origin', signal: ctl.signal })
        if (res.status === 404 || res.status === 410) {
          if (alive) setState({ kind: 'deleted' })
          return
        }
        if (!res.ok) throw new Error(`media ${res.status}`)
        let blob = await res.blob()
        const type = mimeType || blob.type || 'audio/webm'
        if (isWebm(type) && durationMs > 0) {
          const { default: fixWebmDuration } = await import('fix-webm-duration')
          blob = await fixWebmDuration(blob, durationMs, { logger: false })
        }
        if (!alive) return
        url = URL.createObjectURL(blob)
        setState({ kind: 'ready', url, mimeType: type })
      } catch {
        if (alive) setState({ kind: 'error' })
      }
    })()
    return () => {
      alive = false
      ctl.abort()
      if (url) URL.revokeObjectURL(url)
    }
  }, [attemptId, id, deleted, durationMs, mimeType, attempt])

  const name = label ? `Grabación: ${label}` : 'Grabación'
  const shown: State = deleted ? { kind: 'deleted' } : state

  return (
    <div className="space-y-2 rounded-xl border border-slate-200 bg-white p-4">
      <p className="font-medium text-slate-900">
        {name}
        {durationMs > 0 && <span className="ml-2 font-normal text-slate-600">({formatClock(durationMs)})</span>}
      </p>
      {shown.kind === 'loading' && (
        <p role="status" className="flex items-center gap-2 text-slate-700">
          <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-brand-200 border-t-brand-700" />
          Cargando grabación…
        </p>
      )}
      {shown.kind === 'deleted' && <p className="text-slate-700">Esta grabación fue eliminada.</p>}
      {shown.kind === 'error' && (
        <div role="alert" className="flex flex-wrap items-center gap-3 text-red-900">
          <span>No se pudo cargar la grabación.</span>
          <Button variant="outline" onClick={() => setAttempt((n) => n + 1)}>
            Reintentar
          </Button>
        </div>
      )}
      {shown.kind === 'ready' && (
        <>
          <audio ref={audioRef} controls preload="metadata" src={shown.url} aria-label={name} className="w-full">
            Su navegador no puede reproducir esta grabación.
          </audio>
          <div className="flex flex-wrap items-center gap-4 text-sm">
            <a
              href={shown.url}
              download={`grabacion-${id}.${fileExtension(shown.mimeType)}`}
              className="font-semibold text-brand-700 underline hover:text-brand-800"
            >
              Descargar<span className="sr-only"> {name.toLowerCase()}</span>
            </a>
            {!recording.complete && <span className="text-slate-700">La grabación aún se está subiendo; puede estar incompleta.</span>}
          </div>
        </>
      )}
    </div>
  )
}
