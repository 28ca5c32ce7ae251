import type { Recording } from '@/features/attempts/api/types'

export const recordingMediaUrl = (attemptId: string, recordingId: string) =>
  `/api/attempts/${encodeURIComponent(attemptId)}/recordings/${encodeURIComponent(recordingId)}/media`

// RecordingAudio plays one recording with the browser's own controls. It
// takes RecordingPlayer's props, so it can give way to it unchanged.
export function RecordingAudio({ attemptId, recording, label }: { attemptId: string; recording: Recording; label: string }) {
  return (
    <figure>
      <figcaption className="text-sm font-medium text-slate-800">{label}</figcaption>
      <audio controls preload="metadata" src={recordingMediaUrl(attemptId, recording.id)} aria-label={label} className="mt-1 w-full">
        <a href={recordingMediaUrl(attemptId, recording.id)}>Descargar la grabación</a>
      </audio>
    </figure>
  )
}
