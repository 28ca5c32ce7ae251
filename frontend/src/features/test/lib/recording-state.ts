import type { ControllerState } from './recording-controller'
import type { MicState } from './microphone'

// recordingState is what the recorder is doing, in the words the recorder
// card, the sticky bar and the phase text share, so they always agree.
export type RecordingStateKey = 'on' | 'paused' | 'starting' | 'off'

export type RecordingState = { key: RecordingStateKey; text: string; problem: string | null }

export const recordingStateText: Record<RecordingStateKey, string> = {
  on: 'Grabando',
  paused: 'Grabación en pausa',
  starting: 'Iniciando la grabación…',
  off: 'Sin grabar',
}

export function recordingState(rec: ControllerState, mic: MicState): RecordingState {
  const problem = rec.error ?? (mic.status === 'failed' ? mic.message : null)
  const key: RecordingStateKey =
    rec.phase !== null && !rec.paused
      ? 'on'
      : rec.paused
        ? 'paused'
        : rec.starting || (mic.status === 'asking' && !problem)
          ? 'starting'
          : 'off'
  return { key, text: recordingStateText[key], problem }
}
