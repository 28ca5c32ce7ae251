// Preparation notes: saved to the server (debounced) and kept in this
// browser too, so that a note written while offline survives a reload.

export const NOTES_TEMPLATE = [
  'Introducción:',
  '',
  'Hechos:',
  '',
  'Problema jurídico:',
  '',
  'Normas aplicables:',
  '',
  'Análisis:',
  '',
  'Conclusión y vía procesal:',
  '',
].join('\n')

export const NOTES_MAX = 20_000

export type LocalNotes = { text: string; synced: boolean; at: number }

const key = (attemptId: string) => `simulador.notas.${attemptId}`

export function readLocalNotes(attemptId: string): LocalNotes | null {
  try {
    const raw = localStorage.getItem(key(attemptId))
    if (!raw) return null
    const v = JSON.parse(raw) as Partial<LocalNotes>
    return typeof v.text === 'string' ? { text: v.text, synced: !!v.synced, at: Number(v.at) || 0 } : null
  } catch {
    return null
  }
}

export function writeLocalNotes(attemptId: string, text: string, synced: boolean) {
  try {
    localStorage.setItem(key(attemptId), JSON.stringify({ text, synced, at: Date.now() }))
  } catch {
    // storage full or disabled: the server copy remains
  }
}

export function forgetLocalNotes(attemptId: string) {
  try {
    localStorage.removeItem(key(attemptId))
  } catch {
    // nothing to forget
  }
}

// initialNotes chooses what the notes pad starts with: local notes the
// server has not confirmed win (they are newer); then the server's; then
// local ones; then the outline template.
export function initialNotes(server: string, local: LocalNotes | null): { text: string; needsSave: boolean } {
  if (local && !local.synced && local.text !== server) return { text: local.text, needsSave: true }
  if (server) return { text: server, needsSave: false }
  if (local?.text) return { text: local.text, needsSave: local.text !== server }
  return { text: NOTES_TEMPLATE, needsSave: false }
}
