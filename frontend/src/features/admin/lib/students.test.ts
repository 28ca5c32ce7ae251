import { describe, expect, it } from 'vitest'
import type { AttemptSummary } from '@/types/api'
import { attemptStats, trendText } from './students'

const summary = (over: Partial<AttemptSummary>): AttemptSummary => ({
  id: 'a',
  mode: 'entrenamiento',
  status: 'finished',
  caseTitle: 'Caso',
  area: 'Penal',
  createdAt: '2026-01-01T00:00:00Z',
  finishedAt: '2026-01-01T00:30:00Z',
  selfScore: null,
  tutorScore: null,
  graded: false,
  student: { id: 's', mail: 's@x.ec', displayName: 'S' },
  ...over,
})

describe('students', () => {
  it('says the trend in words', () => {
    expect(trendText('sube')).toBe('Sube')
    expect(trendText('baja')).toBe('Baja')
    expect(trendText('estable')).toBe('Estable')
    expect(trendText('')).toBe('Sin datos')
    expect(trendText(undefined)).toBe('Sin datos')
  })

  it('averages the finished attempts, the tutor mark first', () => {
    const s = attemptStats([
      summary({ selfScore: 6, tutorScore: 8, graded: true }),
      summary({ selfScore: 7 }),
      summary({ status: 'in_progress', selfScore: null }),
      summary({ status: 'abandoned' }),
      summary({ selfScore: 6.335 }),
    ])
    expect(s).toEqual({ attempts: 5, finished: 3, graded: 1, average: 7.11 })
    expect(attemptStats([])).toEqual({ attempts: 0, finished: 0, graded: 0, average: null })
  })
})
