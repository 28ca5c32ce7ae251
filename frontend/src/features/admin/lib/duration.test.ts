import { describe, expect, it } from 'vitest'
import { formatDuration, joinSeconds, outOfBounds, rangeText, splitSeconds } from './duration'

describe('duration', () => {
  it('splits and joins minutes and seconds', () => {
    expect(splitSeconds(1200)).toEqual({ min: 20, sec: 0 })
    expect(splitSeconds(125)).toEqual({ min: 2, sec: 5 })
    expect(splitSeconds(0)).toEqual({ min: 0, sec: 0 })
    expect(splitSeconds(-3)).toEqual({ min: 0, sec: 0 })
    expect(joinSeconds(2, 5)).toBe(125)
    expect(joinSeconds('20', '')).toBe(1200)
    expect(joinSeconds('', '45')).toBe(45)
    expect(joinSeconds('x', '3')).toBe(3)
    for (const t of [0, 2, 59, 60, 61, 3599, 3600]) {
      const { min, sec } = splitSeconds(t)
      expect(joinSeconds(min, sec)).toBe(t)
    }
  })

  it('says durations and ranges in words', () => {
    expect(formatDuration(1200)).toBe('20 min')
    expect(formatDuration(90)).toBe('1 min 30 s')
    expect(formatDuration(20)).toBe('20 s')
    expect(rangeText({ min: 600, max: 3600 })).toBe('entre 10 min y 60 min')
    expect(rangeText({ min: 1, max: 5 }, 'count')).toBe('entre 1 y 5')
  })

  it('reports values out of bounds', () => {
    const b = { min: 600, max: 3600 }
    expect(outOfBounds(600, b)).toBeNull()
    expect(outOfBounds(3600, b)).toBeNull()
    expect(outOfBounds(3630, b)).toBe('Debe estar entre 10 min y 60 min.')
    expect(outOfBounds(599, b)).toBe('Debe estar entre 10 min y 60 min.')
    expect(outOfBounds(Number.NaN, { min: 1, max: 5 }, 'count')).toBe('Debe estar entre 1 y 5.')
  })
})
