import { describe, expect, it } from 'vitest'
import { emptyCaseDraft, oneLine, problemsByField, toCaseBody, toCaseDraft } from './case-draft'
import type { Case } from '@/features/attempts/api/types'

describe('case draft', () => {
  it('starts with one blank row per list', () => {
    const d = emptyCaseDraft('derecho')
    expect(d).toMatchObject({ degreeId: 'derecho', questions: [''], followUps: [''], keyPoints: [''], legalBases: [{ norm: '', article: '' }], status: 'active', demo: false })
  })

  it('edits a case and sends it back trimmed, without blank rows', () => {
    const c: Case = {
      id: 'x',
      degree: 'Derecho',
      degreeId: 'derecho',
      area: 'Penal',
      title: 'Robo',
      facts: 'Hechos',
      questions: ['¿Qué delito?'],
      followUps: [],
      keyPoints: ['Tipicidad'],
      legalBases: [{ norm: 'COIP', article: '189' }],
      status: 'retired',
      demo: true,
    }
    const d = toCaseDraft(c)
    expect(d.followUps).toEqual([''])
    d.followUps = ['  ¿Y la pena?\n¿Agravantes? ', '   ']
    d.title = '  Robo  '
    d.legalBases.push({ norm: ' ', article: '' }, { norm: 'Constitución', article: ' 76.7.L ' })
    expect(toCaseBody(d)).toEqual({
      degreeId: 'derecho',
      area: 'Penal',
      title: 'Robo',
      facts: 'Hechos',
      questions: ['¿Qué delito?'],
      followUps: ['¿Y la pena? ¿Agravantes?'],
      keyPoints: ['Tipicidad'],
      legalBases: [
        { norm: 'COIP', article: '189' },
        { norm: 'Constitución', article: '76.7.L' },
      ],
      status: 'retired',
      demo: true,
    })
    // The draft's lists are copies: editing them leaves the case alone.
    expect(c.legalBases).toHaveLength(1)
  })

  it('keeps items on one line', () => {
    expect(oneLine('uno\r\n  dos\ntres')).toBe('uno dos tres')
  })

  it('groups the server problems by field', () => {
    expect(
      problemsByField([
        { column: 'title', message: 'El título es obligatorio.' },
        { column: 'legalBases', message: 'a' },
        { column: 'legalBases', message: 'b' },
        { column: 'otro', message: 'c' },
      ]),
    ).toEqual({ title: ['El título es obligatorio.'], legalBases: ['a', 'b'], '': ['c'] })
    expect(problemsByField(undefined)).toEqual({})
    expect(problemsByField({ missing: [1] })).toEqual({})
  })
})
