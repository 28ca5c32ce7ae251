import { describe, expect, it } from 'vitest'
import { renderHook } from '@testing-library/react'
import { useTimeWarnings } from './use-time-warnings'

describe('useTimeWarnings', () => {
  it('announces 2:00 and 0:30 once each as the countdown crosses them', () => {
    const { result, rerender } = renderHook(({ sec, key, paused }) => useTimeWarnings(sec, 600, key, paused), {
      initialProps: { sec: 125 as number | null, key: 1, paused: false },
    })
    expect(result.current.text).toBe('')
    rerender({ sec: 121, key: 1, paused: false })
    expect(result.current.text).toBe('')
    rerender({ sec: 120, key: 1, paused: false })
    expect(result.current).toEqual({ text: 'Quedan 2 minutos.', n: 1 })
    rerender({ sec: 60, key: 1, paused: false })
    expect(result.current.n).toBe(1)
    rerender({ sec: 30, key: 1, paused: false })
    expect(result.current).toEqual({ text: 'Quedan 30 segundos.', n: 2 })
  })

  it('says nothing when a phase starts below a threshold, or after a pause', () => {
    const { result, rerender } = renderHook(({ sec, key, paused }) => useTimeWarnings(sec, 600, key, paused), {
      initialProps: { sec: 200 as number | null, key: 1, paused: false },
    })
    rerender({ sec: 100, key: 2, paused: false }) // a new phase (or a reload) already under 2:00
    expect(result.current.text).toBe('')
    rerender({ sec: 100, key: 2, paused: true })
    rerender({ sec: 100, key: 2, paused: false })
    rerender({ sec: 99, key: 2, paused: false })
    expect(result.current.text).toBe('')
  })
})
