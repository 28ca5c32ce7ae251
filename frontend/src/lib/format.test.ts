import { describe, expect, it } from 'vitest'
import { formatPercent, formatScore } from './format'

describe('formatPercent', () => {
  it('shows a share as a whole percentage, and a dash when there is none', () => {
    expect(formatPercent(0.75)).toBe('75 %')
    expect(formatPercent(2 / 3)).toBe('67 %')
    expect(formatPercent(0)).toBe('0 %')
    expect(formatPercent(1)).toBe('100 %')
    expect(formatPercent(null)).toBe('—')
    expect(formatPercent(undefined)).toBe('—')
  })
})

describe('formatScore', () => {
  it('shows one decimal with a comma, and a dash when there is none', () => {
    expect(formatScore(8.26)).toBe('8,3')
    expect(formatScore(7)).toBe('7,0')
    expect(formatScore(null)).toBe('—')
  })
})
