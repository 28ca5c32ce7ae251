// Live transcription with the browser's speech recognition (Chrome, Edge).
// The recognizer may send audio to its vendor, so it only runs when the
// student agreed before starting. It restarts itself when the browser stops
// it after a silence, and it never affects the recording.

import type { Segment } from './api/types'

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

export type LiveSession = {
  /** Stops listening and returns the final segments, timed from start. */
  stop(): Segment[]
}

// startLiveTranscription listens until stop(); now() is the clock the
// recording uses, so segment times line up with the audio.
export function startLiveTranscription(now: () => number = () => performance.now()): LiveSession | null {
  const Ctor = ctor()
  if (!Ctor) return null
  const t0 = now()
  const segments: Segment[] = []
  let active = true
  let lang = 'es-EC'
  let segStart = 0
  let rec: Recognition

  const launch = () => {
    rec = new Ctor()
    rec.lang = lang
    rec.continuous = true
    rec.interimResults = true
    rec.onresult = (e) => {
      for (let i = e.resultIndex; i < e.results.length; i++) {
        const r = e.results[i]
        if (!r.isFinal) {
          if (!segStart) segStart = now() - t0
          continue
        }
        const text = r[0].transcript.trim()
        const end = now() - t0
        if (text) segments.push({ startMs: Math.round(segStart || end), endMs: Math.round(end), text })
        segStart = 0
      }
    }
    rec.onerror = (e) => {
      // es-EC is not offered everywhere: fall back to es-ES once.
      if (e.error === 'language-not-supported' && lang === 'es-EC') lang = 'es-ES'
      else if (e.error === 'not-allowed' || e.error === 'service-not-allowed') active = false
    }
    rec.onend = () => {
      if (active) {
        try {
          launch()
        } catch {
          active = false
        }
      }
    }
    rec.start()
  }
  try {
    launch()
  } catch {
    return null
  }
  return {
    stop() {
      active = false
      try {
        rec.stop()
      } catch {
        // already stopped
      }
      return segments.slice()
    },
  }
}
