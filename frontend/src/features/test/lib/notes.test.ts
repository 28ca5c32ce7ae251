import { beforeEach, describe, expect, it } from 'vitest'
import { initialNotes, NOTES_TEMPLATE, readLocalNotes, writeLocalNotes } from './notes'

describe('notes', () => {
  beforeEach(() => localStorage.clear())

  it('starts from the outline template', () => {
    expect(initialNotes('', null)).toEqual({ text: NOTES_TEMPLATE, needsSave: false })
    expect(NOTES_TEMPLATE).toContain('Conclusión y vía procesal:')
  })

  it('prefers unsynced local notes, then the server copy', () => {
    expect(initialNotes('servidor', { text: 'local', synced: false, at: 1 })).toEqual({ text: 'local', needsSave: true })
    expect(initialNotes('servidor', { text: 'local', synced: true, at: 1 })).toEqual({ text: 'servidor', needsSave: false })
    expect(initialNotes('', { text: 'local', synced: true, at: 1 })).toEqual({ text: 'local', needsSave: true })
  })

  it('keeps notes per attempt in local storage', () => {
    writeLocalNotes('a1', 'Hechos: x', false)
    expect(readLocalNotes('a1')).toMatchObject({ text: 'Hechos: x', synced: false })
    expect(readLocalNotes('a2')).toBeNull()
  })
})
