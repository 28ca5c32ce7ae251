import { describe, expect, it } from 'vitest'
import { renderHook } from '@testing-library/react'
import type { Phase } from '@/types/api'
import { useSecondsLeft } from './use-seconds-left'

const at = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString()

describe('useSecondsLeft', () => {
  it('never carries the previous phase’s reading into the next phase', () => {
    const expired: Pick<Phase, 'limitSec' | 'usedSec' | 'deadline' | 'pausedAt'> = {
      limitSec: 4,
      usedSec: 4,
      deadline: at(-100),
      pausedAt: null,
    }
    const next: typeof expired = { limitSec: 8, usedSec: 0, deadline: at(8000), pausedAt: null }
    const { result, rerender } = renderHook(({ p, k }) => useSecondsLeft(p, k), { initialProps: { p: expired, k: 0 } })
    expect(result.current).toBe(0)
    rerender({ p: next, k: 1 })
    expect(result.current).toBe(8)
  })
})
