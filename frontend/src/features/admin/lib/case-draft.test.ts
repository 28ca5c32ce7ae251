import { describe, expect, it } from 'vitest'
import {
  emptyCaseDraft,
  linksAfterFollowUps,
  linksAfterKeyPoints,
  oneLine,
  problemsByField,
  removedIndex,
  toCaseBody,
  toCaseDraft,
} from './case-draft'
import type { Case } from '@/types/api'

describe('case draft', () => {
  it('starts with one blank row per list', () => {
    const d = emptyCaseDraft('derecho')
    expect(d).toMatchObject({
      degreeId: 'derecho',
      questions: [''],
      followUps: [''],
      keyPoints: [''],
      legalBases: [{ norm: '', article: '' }],
      status: 'active',
      demo: false,
    })
  })

  it('edits a case and sends it back trimmed, without blank rows', () => {
    const c: Case = {
      id: 'x',
      degree: 'Derecho',
      degreeId: 'derecho',
      area: 'Penal',
      title: 'Robo',
      difficulty: 'intermedio',
      facts: 'Hechos',
      questions: ['¿Qué delito?'],
      followUps: [],
      keyPoints: ['Tipicidad'],
      followUpKeyPoints: [],
      legalBases: [{ norm: 'COIP', article: '189', note: 'Robo.', label: 'art. 189', url: 'https://example.org' }],
      status: 'retired',
      demo: true,
    }
    const d = toCaseDraft(c)
    expect(d.followUps).toEqual([''])
    d.followUps = ['  ¿Y la pena?\n¿Agravantes? ', '   ']
    d.title = '  Robo  '
    d.legalBases.push({ norm: ' ', article: '', note: '' }, { norm: 'Constitución', article: ' 76.7.L ', note: ' Motivación.\n ' })
    expect(toCaseBody(d)).toEqual({
      degreeId: 'derecho',
      area: 'Penal',
      title: 'Robo',
      difficulty: 'intermedio',
      facts: 'Hechos',
      questions: ['¿Qué delito?'],
      followUps: ['¿Y la pena? ¿Agravantes?'],
      keyPoints: ['Tipicidad'],
      followUpKeyPoints: [],
      legalBases: [
        { norm: 'COIP', article: '189', note: 'Robo.' },
        { norm: 'Constitución', article: '76.7.L', note: 'Motivación.' },
      ],
      status: 'retired',
      demo: true,
    })
    // The draft's lists are copies: editing them leaves the case alone.
    expect(c.legalBases).toHaveLength(1)
  })

  it('sends the key point answering each tribunal question, renumbered past blank rows', () => {
    const d = emptyCaseDraft('derecho')
    d.followUps = ['¿Norma?', '  ', '¿Juez?']
    d.keyPoints = ['Uno', '', 'Tres']
    d.followUpKeyPoints = [3, 1, 1]
    // Key point 3 is sent as 2 (the blank second row goes); the blank follow-up goes with its link.
    expect(toCaseBody(d).followUpKeyPoints).toEqual([2, 1])
    d.followUpKeyPoints = [0, 0, 2]
    // A link to a blank row is no link; with none left, nothing is sent.
    expect(toCaseBody(d).followUpKeyPoints).toEqual([])
  })

  it('keeps the links in step when a row is removed or added', () => {
    expect(removedIndex(['a', 'b', 'c'], ['a', 'c'])).toBe(1)
    expect(removedIndex(['a', 'b', 'c'], ['a', 'b'])).toBe(2)
    expect(removedIndex(['a', 'b'], ['a', 'b', ''])).toBe(-1)
    // Follow-ups: the removed one's link goes; a new row starts unlinked.
    expect(linksAfterFollowUps([3, 1, 2], ['x', 'y', 'z'], ['x', 'z'])).toEqual([3, 2])
    expect(linksAfterFollowUps([3, 1], ['x', 'y'], ['x', 'y', ''])).toEqual([3, 1, 0])
    // Key points: links to the removed one are dropped, later ones move up.
    expect(linksAfterKeyPoints([3, 2, 1], ['a', 'b', 'c'], ['a', 'c'])).toEqual([2, 0, 1])
    expect(linksAfterKeyPoints([3, 2], ['a', 'b', 'c'], ['a', 'b', 'c', ''])).toEqual([3, 2])
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
