import type { UploadStatus } from '../recording/uploader'

// uploadSummary puts the upload queue's state in honest Spanish words.
export type UploadSummary = { tone: 'ok' | 'pending' | 'offline' | 'error'; text: string; detail?: string }

const fragments = (n: number) => (n === 1 ? '1 fragmento pendiente' : `${n} fragmentos pendientes`)

export function uploadSummary(s: UploadStatus): UploadSummary {
  const pending = s.pendingChunks
  const error = s.lastError
  if (error && (!error.retrying || s.halted))
    return { tone: 'error', text: error.message, detail: pending > 0 ? `${fragments(pending)} en este equipo.` : undefined }
  if (!s.online) {
    if (pending === 0 && s.pendingRecordings === 0)
      return { tone: 'offline', text: 'Sin conexión. Lo que grabe se guardará en este equipo y se enviará al reconectar.' }
    return {
      tone: 'offline',
      text: `${fragments(pending)} — ${pending === 1 ? 'se enviará' : 'se enviarán'} al reconectar`,
      detail: 'Sin conexión: la grabación continúa y se guarda en este equipo.',
    }
  }
  // The server asked to come back in a moment: nothing is wrong, and
  // nothing is lost.
  if (error?.kind === 'busy')
    return { tone: 'pending', text: error.message, detail: pending > 0 ? `${fragments(pending)} en este equipo.` : undefined }
  if (error?.retrying) return { tone: 'offline', text: `${fragments(pending)} — se reintentará automáticamente`, detail: error.message }
  // One chunk in flight is the normal state while recording (a chunk every
  // 2 s); more than that, or a take waiting to be closed, is worth saying.
  if (pending > 1 || s.pendingRecordings > 0)
    return { tone: 'pending', text: pending > 0 ? `Enviando al servidor: ${fragments(pending)}` : 'Enviando al servidor…' }
  return { tone: 'ok', text: 'Guardado en el servidor' }
}

// uploadsSettled: everything recorded is on the server.
export const uploadsSettled = (s: UploadStatus) => s.pendingChunks === 0 && s.pendingRecordings === 0
