// withLiveTranscript runs the browser's speech recognition beside a
// recorder take (when the student agreed) and saves the result as the
// take's live transcript. The recognizer pauses and stops with the take,
// and its segments are timed on the take's own clock, so a timestamp seeks
// the recording to the right moment. The transcript can only be saved once
// the upload queue has registered the recording, so saving retries for a
// while; a transcript that never lands costs nothing but the evidence.

import { ApiError } from '@/lib/api-client'
import { putTranscript } from './api/put-transcript'
import type { LiveTranscript } from './live-recognizer'
import { liveTranscriptionConsent, liveTranscriptionSupported, startLiveTranscription } from './live-recognizer'

type Take = {
  readonly recordingId: string
  readonly phase: number
  /** Recorded time so far, pauses excluded (the recording's clock). */
  readonly durationMs?: number
  pause(): void
  resume(): void
  stop(): Promise<unknown>
  readonly ended: Promise<unknown>
}

export function withLiveTranscript<T extends Take>(take: T, attemptId: string): T {
  if (!liveTranscriptionSupported() || !liveTranscriptionConsent()) return take
  const clock = typeof take.durationMs === 'number' ? () => take.durationMs ?? 0 : undefined
  const session = startLiveTranscription({ clock })
  if (!session) return take
  let finished: Promise<void> | null = null
  const finish = () =>
    (finished ??= session.stop().then((t) => {
      if (t.segments.length) void saveWithRetry(attemptId, take.recordingId, t)
    }))
  void take.ended.then(finish, finish)
  const stop = take.stop.bind(take)
  const pause = take.pause.bind(take)
  const resume = take.resume.bind(take)
  return Object.assign(take, {
    // The recognizer stops with the recorder, and the take counts as
    // stopped only once it handed over its last words: the next phase's
    // recognizer would otherwise cut them off.
    stop: async () => {
      const done = finish()
      try {
        return await stop()
      } finally {
        await done
      }
    },
    pause: () => {
      pause()
      session.pause()
    },
    resume: () => {
      resume()
      session.resume()
    },
  })
}

async function saveWithRetry(attemptId: string, recordingId: string, { language, segments }: LiveTranscript) {
  let delay = 2000
  for (let i = 0; i < 15; i++) {
    try {
      await putTranscript({ attemptId, recordingId, source: 'browser', language, segments })
      return
    } catch (e) {
      // 404: the recording is not registered yet (uploads lag behind).
      const retry = !(e instanceof ApiError) || e.status === 0 || e.status === 404 || e.status >= 500
      if (!retry) return
      await new Promise((r) => setTimeout(r, delay))
      delay = Math.min(delay * 2, 30_000)
    }
  }
}
