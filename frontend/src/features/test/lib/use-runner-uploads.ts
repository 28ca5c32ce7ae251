import { useEffect, useMemo, useState } from 'react'
import { resumePendingUploads } from '../recording/recorder'
import { getUploadQueue, useUploadStatus } from '../recording/uploader'

// useRunnerUploads gives the running attempt its upload queue and status,
// and first finishes and sends whatever an earlier page left in this
// browser: resumed turns true once that is done (or failed), and only then
// may a new take start.
export function useRunnerUploads(attemptId: string) {
  const queue = useMemo(() => getUploadQueue(attemptId), [attemptId])
  const upload = useUploadStatus(queue)
  const [resumedFor, setResumedFor] = useState<string | null>(null)
  useEffect(() => {
    let alive = true
    resumePendingUploads(attemptId, queue)
      .catch(() => undefined)
      .finally(() => {
        if (alive) setResumedFor(attemptId)
      })
    return () => {
      alive = false
    }
  }, [attemptId, queue])
  return { queue, upload, resumed: resumedFor === attemptId }
}
