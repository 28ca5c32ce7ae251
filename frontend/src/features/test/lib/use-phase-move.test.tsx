import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, renderHook } from '@testing-library/react'
import { ApiError } from '@/lib/api-client'
import type { Attempt } from '@/types/api'
import { reconnectingText, usePhaseMove, type PhaseMoveDeps } from './use-phase-move'

const showApiError = vi.hoisted(() => vi.fn(async () => undefined))
vi.mock('@/lib/errors', () => ({ showApiError }))

const attemptAt = (current: number) => ({ current, status: 'in_progress' }) as Attempt
const offline = () => new ApiError(0, 'network', 'No se pudo conectar con el servidor.')

function setup(send: PhaseMoveDeps['send'], refetch: PhaseMoveDeps['refetch'] = async () => attemptAt(0)) {
  const deps = { cur: 0, stopRecording: vi.fn(async () => {}), send: vi.fn(send), refetch: vi.fn(refetch), apply: vi.fn() }
  const hook = renderHook((props: { cur: number }) => usePhaseMove({ ...deps, cur: props.cur }), { initialProps: { cur: 0 } })
  return { deps, ...hook }
}

describe('usePhaseMove', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    showApiError.mockClear()
  })
  afterEach(() => vi.useRealTimers())

  it('stops the take, retries a lost connection with backoff, and stays under way until the page shows the next phase', async () => {
    const answers = [offline(), offline(), attemptAt(1)]
    const { deps, result, rerender } = setup(async () => {
      const next = answers.shift()!
      if (next instanceof Error) throw next
      return next
    })
    let done!: Promise<void>
    act(() => {
      done = result.current.move(0, 'advance')
    })
    expect(result.current.advancing).toBe(true)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0)
    })
    expect(deps.stopRecording).toHaveBeenCalledOnce()
    expect(deps.send).toHaveBeenCalledTimes(1)
    expect(result.current.connection).toBe(reconnectingText)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(999)
    })
    expect(deps.send).toHaveBeenCalledTimes(1) // 1 s, then 2 s
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1 + 2000)
      await done
    })
    expect(deps.send).toHaveBeenCalledTimes(3)
    expect(deps.send).toHaveBeenLastCalledWith(0, 'advance')
    expect(deps.apply).toHaveBeenCalledWith(attemptAt(1))
    expect(result.current.connection).toBeNull()
    expect(result.current.advancing).toBe(true) // the cache has not re-rendered the page yet

    // A second press while under way does nothing.
    await act(() => result.current.move(0, 'advance'))
    expect(deps.send).toHaveBeenCalledTimes(3)

    rerender({ cur: 1 })
    expect(result.current.advancing).toBe(false)
  })

  it('reads the attempt again after a refusal, without a dialog for phase_order', async () => {
    const { deps, result } = setup(
      async () => {
        throw new ApiError(409, 'phase_order', 'La fase ya terminó')
      },
      async () => attemptAt(2),
    )
    await act(() => result.current.move(0, 'skip'))
    expect(deps.send).toHaveBeenCalledWith(0, 'skip')
    expect(showApiError).not.toHaveBeenCalled()
    expect(deps.apply).toHaveBeenCalledWith(attemptAt(2))
  })

  it('shows any other refusal and lets the student try again', async () => {
    const { deps, result } = setup(async () => {
      throw new ApiError(400, 'invalid', 'No')
    })
    await act(() => result.current.move(0, 'advance'))
    expect(showApiError).toHaveBeenCalledWith(expect.objectContaining({ code: 'invalid' }), 'No se pudo pasar de fase')
    expect(result.current.advancing).toBe(false)
    await act(() => result.current.move(0, 'advance'))
    expect(deps.send).toHaveBeenCalledTimes(2)
  })

  it('stops retrying when the page is left', async () => {
    const { deps, result, unmount } = setup(async () => {
      throw offline()
    })
    let done!: Promise<void>
    act(() => {
      done = result.current.move(0, 'advance')
    })
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0)
    })
    unmount()
    await vi.advanceTimersByTimeAsync(60_000)
    await done
    expect(deps.send).toHaveBeenCalledTimes(1)
    expect(deps.apply).not.toHaveBeenCalled()
  })

  it('runs an exclusive action only when nothing else is under way', async () => {
    const { result } = setup(async () => attemptAt(1))
    const action = vi.fn(async () => {})
    let release!: () => void
    const slow = new Promise<void>((r) => (release = r))
    let first!: Promise<void>
    act(() => {
      first = result.current.exclusive(() => slow)
    })
    await act(() => result.current.exclusive(action))
    expect(action).not.toHaveBeenCalled()
    release()
    await act(() => first)
    await act(() => result.current.exclusive(action))
    expect(action).toHaveBeenCalledOnce()
  })
})
