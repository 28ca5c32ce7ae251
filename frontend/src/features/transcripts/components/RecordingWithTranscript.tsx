import { useRef } from 'react'
import { RecordingPlayer } from '@/components/media/RecordingPlayer'
import type { Recording, Transcript } from '@/types/api'
import { TranscriptView } from './TranscriptView'

// RecordingWithTranscript pairs a recording with its transcript, so that a
// timestamp plays the recording from that moment.
export function RecordingWithTranscript({
  attemptId,
  recording,
  transcript,
  label,
  canEdit,
}: {
  attemptId: string
  recording: Recording
  transcript: Transcript | null
  label: string
  canEdit: boolean
}) {
  const audio = useRef<HTMLAudioElement>(null)
  const seek = (ms: number) => {
    const el = audio.current
    if (!el) return
    el.currentTime = ms / 1000
    try {
      // Older engines return nothing from play(); a refused autoplay is fine.
      void el.play()?.catch(() => {})
    } catch {
      // playback not available: the position is set all the same
    }
  }
  return (
    <div className="space-y-3 rounded-xl border border-slate-200 p-3">
      <RecordingPlayer attemptId={attemptId} recording={recording} label={label} audioRef={audio} />
      {!recording.deleted && (
        <details>
          <summary className="cursor-pointer text-sm font-semibold text-brand-700">Transcripción</summary>
          <div className="mt-2">
            <TranscriptView attemptId={attemptId} recordingId={recording.id} transcript={transcript} onSeek={seek} canEdit={canEdit} />
          </div>
        </details>
      )}
    </div>
  )
}
