import { describe, expect, it } from 'vitest'
import { askedCount, keyPointLinkText, keyPointLinks } from './follow-ups'

const c = { followUps: ['¿Qué norma?', '¿Ante quién?', '¿En qué plazo?'], followUpKeyPoints: [1, 2, 3] }

describe('follow-ups asked in an attempt', () => {
  it('counts one asked question per answer phase', () => {
    const kinds = ['preparation', 'presentation', 'think', 'answer', 'closing', 'self_assessment'] as const
    expect(askedCount(kinds.map((kind) => ({ kind })))).toBe(1)
  })

  it('a one-question format speaks of question 1 only; the others are marked as not asked', () => {
    const links = keyPointLinks(c, 1)
    const texts = [0, 1, 2].map((i) => keyPointLinkText(links.get(i)!))
    expect(texts).toEqual([
      'Responde a la pregunta 1 del tribunal',
      'Responde a una pregunta no formulada en este intento',
      'Responde a una pregunta no formulada en este intento',
    ])
    expect(texts.join(' ')).not.toMatch(/pregunta[s]? [23]|preguntas/)
  })

  it('a key point answering an asked and an unasked question names only the asked one', () => {
    const links = keyPointLinks({ followUps: c.followUps, followUpKeyPoints: [1, 2, 1] }, 2)
    expect(keyPointLinkText(links.get(0)!)).toBe('Responde a la pregunta 1 del tribunal')
    expect(links.get(0)).toEqual({ asked: [1], notAsked: true })
    expect(keyPointLinkText(links.get(1)!)).toBe('Responde a la pregunta 2 del tribunal')
  })

  it('outside an attempt every follow-up counts as asked; unlinked questions are skipped', () => {
    const links = keyPointLinks({ followUps: c.followUps, followUpKeyPoints: [2, 0, 2] })
    expect(links.has(0)).toBe(false)
    expect(keyPointLinkText(links.get(1)!)).toBe('Responde a las preguntas 1 y 3 del tribunal')
  })
})
