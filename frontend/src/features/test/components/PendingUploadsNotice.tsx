import { useEffect, useState } from 'react'
import { pendingAttemptIds } from '../recording/store'
import { getUploadQueue, useUploadStatus, type UploadQueue } from '../recording/uploader'
import { resumeIfFree } from '../lib/attempt-lock'
import { uploadsSettled } from '../lib/upload-text'
import { UploadStatusLine } from './UploadStatusLine'

// PendingUploadsNotice sends what this browser still holds of earlier
// attempts (a tab closed before the last chunks were sent) and says so
// while it does. Attempts open in another tab are left to that tab.
export function PendingUploadsNotice({ except }: { except?: string }) {
  const [queues, setQueues] = useState<UploadQueue[]>([])
  useEffect(() => {
    let alive = true
    void (async () => {
      let ids: string[]
      try {
        ids = (await pendingAttemptIds()).filter((id) => id !== except)
      } catch {
        return
      }
      const resumed: UploadQueue[] = []
      for (const id of ids) {
        const q = getUploadQueue(id)
        if (await resumeIfFree(id, q).catch(() => false)) resumed.push(q)
      }
      if (alive && resumed.length > 0) setQueues(resumed)
    })()
    return () => {
      alive = false
    }
  }, [except])
  return (
    <>
      {queues.map((q) => (
        <Pending key={q.attemptId} queue={q} />
      ))}
    </>
  )
}

function Pending({ queue }: { queue: UploadQueue }) {
  const status = useUploadStatus(queue)
  if (uploadsSettled(status) && !status.lastError) return null
  return (
    <div className="space-y-2 rounded-xl border border-slate-300 bg-white p-4">
      <p className="font-semibold text-slate-900">Grabaciones pendientes de un intento anterior</p>
      <UploadStatusLine queue={queue} />
    </div>
  )
}
