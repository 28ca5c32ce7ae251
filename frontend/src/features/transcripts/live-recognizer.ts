// Live transcription with the browser's speech recognition (Chrome, Edge).
// The recognizer may send audio to its vendor, so it only runs when the
// student agreed before starting. It restarts itself when the browser stops
// it after a silence, it follows the recorder's pauses, and it never affects
// the recording.

import type { Segment } from '@/types/api'

type RecognitionResult = { isFinal: boolean; 0: { transcript: string } }
type RecognitionEvent = { resultIndex: number; results: ArrayLike<RecognitionResult> }
type Recognition = {
  lang: string
  continuous: boolean
  interimResults: boolean
  onresult: ((e: RecognitionEvent) => void) | null
  onerror: ((e: { error: string }) => void) | null
  onend: (() => void) | null
  start(): void
  stop(): void
  abort(): void
}
type RecognitionCtor = new () => Recognition

function ctor(): RecognitionCtor | null {
  const w = window as unknown as { SpeechRecognition?: RecognitionCtor; webkitSpeechRecognition?: RecognitionCtor }
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null
}

export function liveTranscriptionSupported() {
  return typeof window !== 'undefined' && ctor() !== null
}

const CONSENT_KEY = 'simulador.liveTranscription'

/** The student's choice, remembered on this device (default: off until chosen). */
export function liveTranscriptionConsent(): boolean {
  try {
    return localStorage.getItem(CONSENT_KEY) === 'on'
  } catch {
    return false
  }
}

export function setLiveTranscriptionConsent(on: boolean) {
  try {
    localStorage.setItem(CONSENT_KEY, on ? 'on' : 'off')
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
}

/** How long stop() waits for the browser to hand over the last utterance. */
export const STOP_TIMEOUT_MS = 1500
/** Restarts after a network error wait this long, doubling up to the maximum… */
export const NETWORK_RETRY_FIRST_MS = 1000
export const NETWORK_RETRY_MAX_MS = 30_000
/** …and give up after this many failures in a row (about two minutes). */
export const NETWORK_RETRY_LIMIT = 8

export type LiveTranscript = {
  /** The language the recognizer actually used (es-EC, or es-ES where es-EC is not offered). */
  language: string
  segments: Segment[]
}

export type LiveSession = {
  /** Stops listening until resume(); speech in between is not transcribed. */
  pause(): void
  resume(): void
  /**
   * Stops listening and resolves with the final segments once the browser
   * has delivered the last utterance (or after STOP_TIMEOUT_MS).
   */
  stop(): Promise<LiveTranscript>
}

export type LiveOptions = {
  /**
   * The recording's own clock: milliseconds recorded so far, pauses
   * excluded. Segment times are read from it so that they line up with the
   * audio. Without it the session keeps its own clock from `now`, stopped
   * while paused.
   */
  clock?: () => number
  now?: () => number
}

// startLiveTranscription listens until stop(). Returns null when the
// browser has no recognizer or refuses to start one.
export function startLiveTranscription(opts: LiveOptions = {}): LiveSession | null {
  const Ctor = ctor()
  if (!Ctor) return null
  const now = opts.now ?? (() => performance.now())
  let activeMs = 0
  let runStart: number | null = now()
  const freeze = () => {
    if (runStart !== null) activeMs += now() - runStart
    runStart = null
  }
  const elapsed = opts.clock ?? (() => activeMs + (runStart === null ? 0 : now() - runStart))

  const segments: Segment[] = []
  let want: 'listen' | 'pause' | 'stop' = 'listen'
  let gaveUp = false
  let lang = 'es-EC'
  let used = lang
  let failures = 0
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  // The recognizer between its start() and its onend: at most one at a
  // time (Chrome aborts a session when the page starts another).
  let current: Recognition | null = null
  let onStopped: (() => void) | null = null
  // The utterance being heard, not yet final.
  let pending: { startMs: number; endMs: number; text: string } | null = null

  const push = (startMs: number, endMs: number, text: string) => {
    const end = Math.round(endMs)
    segments.push({ startMs: Math.min(Math.round(startMs), end), endMs: end, text })
  }
  // An utterance the recognizer never finalized (cut by a restart, an
  // error or the stop timeout) is still what the student said.
  const flushPending = () => {
    if (pending) push(pending.startMs, pending.endMs, pending.text)
    pending = null
  }

  const launch = () => {
    retryTimer = undefined
    if (want !== 'listen' || gaveUp || current) return
    const r = new Ctor()
    let backoff = false
    r.lang = lang
    r.continuous = true
    r.interimResults = true
    r.onresult = (e) => {
      if (r !== current) return
      used = r.lang
      failures = 0
      const t = elapsed()
      let interim = ''
      for (let i = e.resultIndex; i < e.results.length; i++) {
        const res = e.results[i]
        const text = (res[0]?.transcript ?? '').trim()
        if (!res.isFinal) {
          if (text) interim += (interim ? ' ' : '') + text
          continue
        }
        if (text) push(pending?.startMs ?? t, t, text)
        pending = null
      }
      if (interim) pending = { startMs: pending?.startMs ?? t, endMs: t, text: interim }
    }
    r.onerror = (e) => {
      if (r !== current) return
      if (e.error === 'language-not-supported') {
        // es-EC is not offered everywhere: fall back to es-ES once.
        if (lang === 'es-EC') lang = 'es-ES'
        else gaveUp = true
      } else if (e.error === 'not-allowed' || e.error === 'service-not-allowed') {
        gaveUp = true
      } else if (e.error === 'network' || e.error === 'audio-capture') {
        // Restarting at once would spin while offline.
        backoff = true
      }
    }
    r.onend = () => {
      if (r !== current) return
      current = null
      flushPending()
      if (want === 'stop') {
        onStopped?.()
        return
      }
      if (!backoff) failures = 0
      if (want !== 'listen' || gaveUp) return
      if (!backoff) {
        launch()
        return
      }
      failures++
      if (failures > NETWORK_RETRY_LIMIT) {
        gaveUp = true // what was transcribed is kept
        return
      }
      retryTimer = setTimeout(launch, Math.min(NETWORK_RETRY_FIRST_MS * 2 ** (failures - 1), NETWORK_RETRY_MAX_MS))
    }
    current = r
    try {
      r.start()
    } catch {
      current = null
      gaveUp = true // the transcript so far is kept
    }
  }

  launch()
  if (gaveUp) return null

  let stopping: Promise<LiveTranscript> | null = null
  return {
    pause() {
      if (want !== 'listen') return
      want = 'pause'
      freeze()
      clearTimeout(retryTimer)
      retryTimer = undefined
      // stop(), not abort(): the utterance before the pause still arrives.
      try {
        current?.stop()
      } catch {
        // already stopped
      }
    },
    resume() {
      if (want !== 'pause') return
      want = 'listen'
      runStart = now()
      // A recognizer still finishing relaunches from its onend.
      launch()
    },
    stop() {
      if (stopping) return stopping
      want = 'stop'
      freeze()
      clearTimeout(retryTimer)
      stopping = new Promise<LiveTranscript>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined
        const done = () => {
          clearTimeout(timer)
          onStopped = null
          const r = current
          current = null // whatever it says from now on is ignored
          if (r) {
            try {
              r.abort()
            } catch {
              // already stopped
            }
          }
          flushPending()
          resolve({ language: used, segments: segments.slice() })
        }
        const r = current
        if (!r) {
          done()
          return
        }
        // The browser delivers the last utterance's final result after
        // stop(), then onend.
        onStopped = done
        timer = setTimeout(done, STOP_TIMEOUT_MS)
        try {
          r.stop()
        } catch {
          done()
        }
      })
      return stopping
    },
  }
}
