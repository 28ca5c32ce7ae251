import { useCallback, useEffect, useState } from 'react'
import { resumePendingUploads } from '../recording/recorder'
import type { UploadQueue } from '../recording/uploader'

// One tab runs an attempt at a time. The tab that runs it holds a Web Lock
// named after it; another tab sees the lock taken and neither records nor
// "finishes" the first tab's live recordings (resumePendingUploads would
// mark them stopped, and their next chunks could not be stored).

export const attemptLockName = (attemptId: string) => `simulador-intento:${attemptId}`

const locks = () => (typeof navigator !== 'undefined' ? navigator.locks : undefined)

export type LockState = 'waiting' | 'held' | 'busy'

// useAttemptLock holds the attempt's lock while the component is mounted
// ('busy' when another tab has it; retry asks again).
export function useAttemptLock(attemptId: string): { state: LockState; retry: () => void } {
  const [round, setRound] = useState(0)
  // The answer for one request of the lock (attempt and round): a new
  // attempt or a retry is 'waiting' until its own answer comes.
  const request = `${attemptId}#${round}`
  const [answer, setAnswer] = useState<{ request: string; state: LockState } | null>(null)
  useEffect(() => {
    const l = locks()
    if (!l?.request) return
    let release: () => void = () => undefined
    const held = new Promise<void>((r) => (release = r))
    let alive = true
    const answered = (state: LockState) => setAnswer({ request, state })
    l.request(attemptLockName(attemptId), { ifAvailable: true }, async (lock) => {
      if (!alive) return
      if (!lock) {
        answered('busy')
        return
      }
      answered('held')
      await held
    }).catch(() => {
      if (alive) answered('held') // locks unusable: behave as a single tab
    })
    return () => {
      alive = false
      release()
    }
  }, [attemptId, request])
  const retry = useCallback(() => setRound((n) => n + 1), [])
  const state: LockState = !locks()?.request ? 'held' : answer?.request === request ? answer.state : 'waiting'
  return { state, retry }
}

// resumeIfFree finishes and sends what this browser holds of an attempt,
// unless a tab is running it right now. It reports whether it did.
export async function resumeIfFree(attemptId: string, queue: UploadQueue): Promise<boolean> {
  const l = locks()
  if (!l?.request) {
    await resumePendingUploads(attemptId, queue)
    return true
  }
  return l.request(attemptLockName(attemptId), { ifAvailable: true }, async (lock) => {
    if (!lock) return false
    await resumePendingUploads(attemptId, queue)
    return true
  })
}
