import { type Ref, useEffect, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { api, ApiError } from '@/lib/api-client'
import { fileExtension, isMp4, isWebm } from '@/lib/mime'
import { withMp4Duration } from '@/lib/seekable-mp4'
import { seekableWebm } from '@/lib/seekable-webm'
import type { Recording } from '@/types/api'

// RecordingPlayer plays one recording of an attempt. It is only used by
// lazily loaded sections (/auth/historial, /admin grading, /test results):
// do not import it from shared code, so it stays out of the /inicio bundle.
//
// The media comes through the API client, so a 401 (the session ended)
// refreshes the session as any other call does.
//
// MediaRecorder writes WebM and MP4 without a duration, so a browser cannot
// seek in them or show their length; the media is fetched whole and the
// duration the recorder measured is written in (lib/seekable-webm.ts,
// lib/seekable-mp4.ts) before playback.

type State = { kind: 'loading' } | { kind: 'ready'; url: string; mimeType: string } | { kind: 'deleted' } | { kind: 'error' }

// A loaded state belongs to one request (recording and try): another
// recording, or Reintentar, shows 'loading' until its own answer comes.
type Loaded = { request: string; state: State }

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
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [attempt, setAttempt] = useState(0)
  const { id, deleted, durationMs, mimeType } = recording
  const request = `${attemptId}/${id}/${durationMs}/${mimeType}#${attempt}`

  useEffect(() => {
    if (deleted) return
    const ctl = new AbortController()
    let url: string | null = null
    let alive = true
    const settle = (state: State) => {
      if (alive) setLoaded({ request, state })
    }
    ;(async () => {
      try {
        const path = `/api/attempts/${encodeURIComponent(attemptId)}/recordings/${encodeURIComponent(id)}/media`
        let blob = await api.blob(path, { signal: ctl.signal })
        const type = mimeType || blob.type || 'audio/webm'
        // The player picks a decoder by the blob's type: make it the
        // recording's (WebM, MP4 or Ogg), whatever the response said.
        if (blob.type !== type) blob = new Blob([blob], { type })
        const repair = isWebm(type) ? seekableWebm : isMp4(type) ? withMp4Duration : null
        if (repair && durationMs > 0) blob = new Blob([repair(await blob.arrayBuffer(), durationMs)], { type })
        if (!alive) return
        url = URL.createObjectURL(blob)
        settle({ kind: 'ready', url, mimeType: type })
      } catch (err) {
        settle(err instanceof ApiError && (err.status === 404 || err.status === 410) ? { kind: 'deleted' } : { kind: 'error' })
      }
    })()
    return () => {
      alive = false
      ctl.abort()
      if (url) URL.revokeObjectURL(url)
    }
  }, [attemptId, id, deleted, durationMs, mimeType, request])

  const name = label ? `Grabación: ${label}` : 'Grabación'
  const shown: State = deleted ? { kind: 'deleted' } : loaded?.request === request ? loaded.state : { kind: 'loading' }

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
