import { useCallback, useSyncExternalStore } from 'react'
import { checkDevice, releaseStream, type DeviceProblem } from '../recording/device'

// The microphone of the simulator: the stream checkDevice() opened on the
// first screen is kept here and reused by every recorded phase of the
// attempt, so the student is asked once. After a reload it is asked again.

export type MicState =
  | { status: 'idle' }
  | { status: 'asking' }
  | { status: 'ready'; stream: MediaStream }
  | { status: 'failed'; reason: DeviceProblem; message: string }

let state: MicState = { status: 'idle' }
const listeners = new Set<() => void>()

function set(next: MicState) {
  state = next
  for (const l of listeners) l()
}

const subscribe = (l: () => void) => {
  listeners.add(l)
  return () => listeners.delete(l)
}
const snapshot = () => state

// A live stream: one whose audio track has not ended (unplugged, revoked).
const live = (s: MediaStream) => s.getAudioTracks().some((t) => t.readyState === 'live')

export function currentStream(): MediaStream | null {
  return state.status === 'ready' && live(state.stream) ? state.stream : null
}

let asking: Promise<MicState> | null = null

// requestMicrophone opens the microphone (or returns the open one).
export function requestMicrophone(): Promise<MicState> {
  if (currentStream()) return Promise.resolve(state)
  if (asking) return asking
  set({ status: 'asking' })
  asking = checkDevice()
    .then((r) => {
      const next: MicState = r.ok ? { status: 'ready', stream: r.stream } : { status: 'failed', reason: r.reason, message: r.message }
      set(next)
      return next
    })
    .finally(() => {
      asking = null
    })
  return asking
}

// releaseMicrophone turns the microphone off (the attempt ended).
export function releaseMicrophone() {
  if (state.status === 'ready') releaseStream(state.stream)
  if (state.status !== 'idle') set({ status: 'idle' })
}

export function useMicrophone() {
  const s = useSyncExternalStore(subscribe, snapshot, snapshot)
  const request = useCallback(() => requestMicrophone(), [])
  const stream = s.status === 'ready' && live(s.stream) ? s.stream : null
  return { state: s, stream, request }
}
