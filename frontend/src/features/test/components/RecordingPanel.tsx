import { Button } from '@/components/ui/Button'
import { Notice } from '@/components/ui/Notice'
import { LevelMeter } from '../recording/LevelMeter'
import { useAudioLevel } from '../recording/level'
import type { UploadQueue } from '../recording/uploader'
import type { ControllerState } from '../lib/recording-controller'
import type { MicState } from '../lib/microphone'
import { UploadStatusLine } from './UploadStatusLine'
import { recordingState } from '../lib/recording-state'

// RecordingPanel shows that the phase is being recorded, the microphone
// level, and where the audio is (on the server or waiting in this device).
export function RecordingPanel({
  rec,
  mic,
  stream,
  queue,
  recorderError,
  onRetry,
}: {
  rec: ControllerState
  mic: MicState
  stream: MediaStream | null
  queue: UploadQueue
  recorderError: string | null
  onRetry: () => void
}) {
  const level = useAudioLevel(rec.phase !== null && !rec.paused ? stream : null)
  const { key, text, problem } = recordingState(rec, mic)
  return (
    <div className="space-y-3 rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
      <p className="flex items-center gap-2 font-semibold" data-recording={key === 'on' ? 'on' : key === 'paused' ? 'paused' : 'off'}>
        {key === 'on' && <span aria-hidden="true" className="size-3 animate-pulse rounded-full bg-red-600 motion-reduce:animate-none" />}
        <span className={key === 'on' ? 'text-red-900' : 'text-slate-800'} data-testid="recording-state">
          {text}
        </span>
      </p>
      <div className="max-w-md">
        <LevelMeter level={level} />
      </div>
      {problem && (
        <Notice tone="error">
          <p>{problem}</p>
          <Button variant="outline" className="mt-3" onClick={onRetry}>
            Volver a intentar grabar
          </Button>
        </Notice>
      )}
      {recorderError && !problem && <Notice tone="error">{recorderError}</Notice>}
      <UploadStatusLine queue={queue} />
    </div>
  )
}
