import type { UploadStatus } from '../recording/uploader'

// uploadSummary puts the upload queue's state in honest Spanish words. It
// says "Guardado en el servidor" only when the server has acknowledged every
// chunk recorded so far and closed every finished take.
export type UploadSummary = { tone: 'ok' | 'pending' | 'offline' | 'error'; text: string; detail?: string }

const fragments = (n: number) => (n === 1 ? '1 fragmento pendiente' : `${n} fragmentos pendientes`)

// directNote: the browser refused to store the takes (a private window, a
// full or blocked storage), so they go straight from memory to the server.
export const directNote =
  'Este navegador no deja guardar la grabación en el equipo (por ejemplo, en una ventana privada), así que se envía directamente al servidor. Si recarga la página o se corta la conexión, podría perderse lo que aún no se haya enviado.'

// where the pending chunks wait: on disk survives a reload, memory does not.
function where(s: UploadStatus): string {
  if (s.heldChunks === 0) return 'en este equipo'
  if (s.heldChunks >= s.pendingChunks) return 'en la memoria de esta pestaña (no la cierre ni la recargue)'
  return 'en este equipo y en la memoria de esta pestaña (no la cierre ni la recargue)'
}

export function uploadSummary(s: UploadStatus): UploadSummary {
  const pending = s.pendingChunks
  const error = s.lastError
  const note = s.direct ? directNote : undefined
  if (error && (!error.retrying || s.halted))
    return { tone: 'error', text: error.message, detail: pending > 0 ? `${fragments(pending)} ${where(s)}.` : note }
  if (!s.online) {
    if (pending === 0 && s.pendingRecordings === 0)
      return {
        tone: 'offline',
        text: s.direct
          ? 'Sin conexión. Lo que grabe se mantendrá en la memoria de esta pestaña y se enviará al reconectar; no la cierre ni la recargue.'
          : 'Sin conexión. Lo que grabe se guardará en este equipo y se enviará al reconectar.',
      }
    return {
      tone: 'offline',
      text: `${fragments(pending)} — ${pending === 1 ? 'se enviará' : 'se enviarán'} al reconectar`,
      detail:
        s.heldChunks > 0
          ? `Sin conexión: la grabación continúa; lo pendiente está ${where(s)}.`
          : 'Sin conexión: la grabación continúa y se guarda en este equipo.',
    }
  }
  // The server asked to come back in a moment: nothing is wrong, and
  // nothing is lost.
  if (error?.kind === 'busy')
    return { tone: 'pending', text: error.message, detail: pending > 0 ? `${fragments(pending)} ${where(s)}.` : note }
  if (error?.retrying) return { tone: 'offline', text: `${fragments(pending)} — se reintentará automáticamente`, detail: error.message }
  if (pending > 0 || s.pendingRecordings > 0)
    return { tone: 'pending', text: pending > 1 ? `Enviando al servidor: ${fragments(pending)}` : 'Enviando al servidor…', detail: note }
  return note ? { tone: 'ok', text: 'Guardado en el servidor', detail: note } : { tone: 'ok', text: 'Guardado en el servidor' }
}

// uploadsSettled: everything recorded is on the server.
export const uploadsSettled = (s: UploadStatus) => s.pendingChunks === 0 && s.pendingRecordings === 0
