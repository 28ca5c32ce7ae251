import { useState } from 'react'
import { Button } from '@/components/ui/Button'
import type { UploadQueue } from '../recording/uploader'
import { useUploadStatus } from '../recording/uploader'
import { uploadSummary } from '../lib/upload-text'

const tones = {
  ok: 'text-green-900 bg-green-50 border-green-300',
  pending: 'text-slate-800 bg-slate-50 border-slate-300',
  offline: 'text-slate-900 bg-gold-300/20 border-gold-500',
  error: 'text-red-900 bg-red-50 border-red-300',
} as const

const icons = { ok: '✓', pending: '↑', offline: '⏸', error: '!' } as const

// UploadStatusLine tells the student, honestly, where their recordings are:
// on the server, on the way, or waiting in this device for the connection.
export function UploadStatusLine({ queue }: { queue: UploadQueue }) {
  const status = useUploadStatus(queue)
  const s = uploadSummary(status)
  // Only changes that matter are announced (going offline, an error, back
  // to saved), not every chunk that comes and goes.
  // The announcement changes with the tone, during the render that sees the
  // new tone (React's way to adjust state to a changed value).
  const [spoken, setSpoken] = useState({ tone: s.tone, said: '' })
  let said = spoken.said
  if (s.tone !== spoken.tone) {
    const from = spoken.tone
    if (s.tone === 'offline' || s.tone === 'error') said = s.text
    else if (s.tone === 'ok' && (from === 'offline' || from === 'error'))
      said = 'Conexión recuperada. Grabaciones guardadas en el servidor.'
    setSpoken({ tone: s.tone, said })
  }
  return (
    <div
      className={`flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border px-3 py-2 text-sm ${tones[s.tone]}`}
      data-upload={s.tone}
    >
      <span aria-hidden="true" className="font-bold">
        {icons[s.tone]}
      </span>
      <span data-testid="upload-status">
        <span className="font-semibold">{s.text}</span>
        {s.detail && <span className="block">{s.detail}</span>}
      </span>
      {s.tone === 'error' && (
        <Button variant="outline" className="min-h-9 px-3 py-1 text-sm" onClick={() => queue.retry()}>
          Reintentar envío
        </Button>
      )}
      <span role="status" className="sr-only">
        {said}
      </span>
    </div>
  )
}
