import { describe, expect, it } from 'vitest'
import { examLength, scoreOf } from './attempts'

// The default rubric's weights (docs/product.md, "Rubric and score").
const rubric = {
  criteria: [
    ['C1', 15],
    ['C2', 15],
    ['C3', 20],
    ['C4', 10],
    ['C5', 10],
    ['F1', 5],
    ['F2', 8],
    ['F3', 5],
    ['F4', 7],
    ['F5', 5],
  ].map(([id, weight]) => ({ id, weight })),
} as Parameters<typeof scoreOf>[0]

const levels = (changes: Record<string, number>, base = 3) => ({
  ...Object.fromEntries(rubric.criteria.map((c) => [c.id, base])),
  ...changes,
})

describe('scoreOf', () => {
  it.each([
    ['all 4', levels({}, 4), 10],
    ['all 3', levels({}), 7.5],
    ['all 1', levels({}, 1), 2.5],
    ['8.075 rounds half up like the server', levels({ F1: 4, F2: 4, F3: 4, F5: 4 }), 8.08],
    ['2.625 rounds half up', levels({ F5: 2 }, 1), 2.63],
    ['6.975 rounds to 6.98', levels({ C1: 1, C2: 1, C3: 4, C5: 4, F2: 2, F3: 4, F4: 4, F5: 4 }), 6.98],
  ])('%s', (_, l, want) => {
    expect(scoreOf(rubric, l)).toBe(want)
  })
})

describe('examLength', () => {
  it('adds up every timed phase, each tribunal question twice', () => {
    const b = { preparationSec: 1200, presentationSec: 600, questions: 3, thinkSec: 20, answerSec: 120, closingSec: 60 }
    expect(examLength(b)).toBe(1200 + 600 + 3 * (20 + 120) + 60)
    expect(examLength({ ...b, questions: 0 })).toBe(1860)
  })
})
