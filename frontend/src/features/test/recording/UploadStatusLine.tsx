import type { UploadQueue, UploadStatus } from './uploader'
import { useUploadStatus } from './uploader'

export type UploadTone = 'ok' | 'busy' | 'warn' | 'error'

const kB = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString('es-EC')} kB`
const parts = (n: number) => (n === 1 ? '1 fragmento' : `${n.toLocaleString('es-EC')} fragmentos`)
const agree = (n: number, word: string) => (n === 1 ? word : `${word}s`)

// uploadStatusText says in Spanish where the student's audio is.
export function uploadStatusText(s: UploadStatus): { tone: UploadTone; text: string } {
  const pending = s.pendingChunks > 0 || s.pendingRecordings > 0
  if (s.lastError && !s.lastError.retrying) return { tone: 'error', text: s.lastError.message }
  if (!s.online && pending) {
    return {
      tone: 'warn',
      text: `Sin conexión. ${parts(s.pendingChunks)} (${kB(s.pendingBytes)}) ${agree(s.pendingChunks, 'guardado')} en este equipo; se ${s.pendingChunks === 1 ? 'subirá' : 'subirán'} al volver la conexión.`,
    }
  }
  if (!s.online) return { tone: 'warn', text: 'Sin conexión. Lo que grabe se guarda en este equipo y se subirá al volver la conexión.' }
  if (s.lastError?.kind === 'busy' && pending) return { tone: 'busy', text: s.lastError.message }
  if (s.lastError && pending) return { tone: 'warn', text: s.lastError.message }
  if (s.pendingChunks > 0)
    return {
      tone: 'busy',
      text: `Subiendo la grabación: ${parts(s.pendingChunks)} ${agree(s.pendingChunks, 'pendiente')} (${kB(s.pendingBytes)}).`,
    }
  if (s.pendingRecordings > 0) return { tone: 'busy', text: 'Terminando de subir la grabación…' }
  return { tone: 'ok', text: 'Grabaciones guardadas en el servidor.' }
}

const toneClass: Record<UploadTone, string> = {
  ok: 'text-green-800',
  busy: 'text-slate-700',
  warn: 'text-amber-900',
  error: 'text-red-800',
}

// UploadStatusLine shows a queue's status in one polite live region.
export function UploadStatusLine({ queue }: { queue: UploadQueue | null | undefined }) {
  const { tone, text } = uploadStatusText(useUploadStatus(queue))
  return (
    <p role="status" aria-live="polite" className={`text-sm ${toneClass[tone]}`}>
      {text}
    </p>
  )
}
