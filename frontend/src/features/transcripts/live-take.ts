// withLiveTranscript runs the browser's speech recognition beside a
// recorder take (when the student agreed) and saves the result as the
// take's live transcript. The transcript can only be saved once the upload
// queue has registered the recording, so saving retries for a while; a
// transcript that never lands costs nothing but the evidence.

import { ApiError } from '@/lib/api-client'
import { putTranscript } from './api/put-transcript'
import type { Segment } from './api/types'
import { liveTranscriptionConsent, liveTranscriptionSupported, startLiveTranscription } from './live-recognizer'

type Take = {
  readonly recordingId: string
  readonly phase: number
  pause(): void
  resume(): void
  stop(): Promise<unknown>
  readonly ended: Promise<unknown>
}

export function withLiveTranscript<T extends Take>(take: T, attemptId: string): T {
  if (!liveTranscriptionSupported() || !liveTranscriptionConsent()) return take
  const session = startLiveTranscription()
  if (!session) return take
  let done = false
  const finish = () => {
    if (done) return
    done = true
    const segments = session.stop()
    if (segments.length) void saveWithRetry(attemptId, take.recordingId, segments)
  }
  void take.ended.then(finish, finish)
  const stop = take.stop.bind(take)
  return Object.assign(take, {
    stop: async () => {
      try {
        return await stop()
      } finally {
        finish()
      }
    },
  })
}

async function saveWithRetry(attemptId: string, recordingId: string, segments: Segment[]) {
  let delay = 2000
  for (let i = 0; i < 15; i++) {
    try {
      await putTranscript({ attemptId, recordingId, source: 'browser', segments })
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
