import { describe, expect, it } from 'vitest'
import { renderHook } from '@testing-library/react'
import type { Phase } from '@/types/api'
import { usePhaseClock } from './use-phase-clock'

const at = (msFromNow: number) => new Date(Date.now() + msFromNow).toISOString()
const phase = (over: Partial<Phase>): Phase => ({
  kind: 'presentation',
  index: 0,
  limitSec: 60,
  startedAt: at(-1000),
  endedAt: null,
  pausedSec: 0,
  pausedAt: null,
  skipped: false,
  recorded: true,
  deadline: at(59_000),
  usedSec: 1,
  ...over,
})

describe('usePhaseClock', () => {
  it('counts the current phase down by its deadline', () => {
    const { result } = renderHook(() =>
      usePhaseClock({ current: 1, phases: [phase({ kind: 'preparation' }), phase({ deadline: at(30_500) })] }),
    )
    expect(result.current.cur).toBe(1)
    expect(result.current.secondsLeft).toBe(31)
    expect(result.current.expired).toBe(false)
    expect(result.current.paused).toBe(false)
  })

  it('is expired when a running timed phase reaches 0, not while paused', () => {
    const over = phase({ deadline: at(-10), usedSec: 60 })
    expect(renderHook(() => usePhaseClock({ current: 0, phases: [over] })).result.current.expired).toBe(true)
    const paused = phase({ deadline: at(-10), pausedAt: at(-5000), usedSec: 55 })
    const { result } = renderHook(() => usePhaseClock({ current: 0, phases: [paused] }))
    expect(result.current).toMatchObject({ paused: true, expired: false, secondsLeft: 5 })
  })

  it('has no countdown for an untimed phase', () => {
    const { result } = renderHook(() =>
      usePhaseClock({ current: 0, phases: [phase({ kind: 'self_assessment', limitSec: 0, deadline: null })] }),
    )
    expect(result.current).toMatchObject({ secondsLeft: null, expired: false })
  })
})
