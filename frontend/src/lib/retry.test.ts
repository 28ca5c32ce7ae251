import { describe, expect, it, vi } from 'vitest'
import { backoffDelay, retry, sleep } from './retry'

describe('backoffDelay', () => {
  it('doubles from 1 s up to 10 s by default', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000])
  })
  it('takes its own base and ceiling', () => {
    expect([1, 2, 3].map((n) => backoffDelay(n, { baseMs: 100, maxMs: 250 }))).toEqual([100, 200, 250])
  })
})

describe('retry', () => {
  const passing = new Error('passing')
  const lasting = new Error('lasting')
  const shouldRetry = (e: unknown) => e === passing

  it('tries again after each passing failure, waiting longer each time', async () => {
    const fn = vi.fn().mockRejectedValueOnce(passing).mockRejectedValueOnce(passing).mockResolvedValueOnce('ok')
    const waits: number[] = []
    const onRetry = vi.fn()
    const result = await retry(fn, { shouldRetry, onRetry, wait: async (ms) => void waits.push(ms) })
    expect(result).toBe('ok')
    expect(fn).toHaveBeenCalledTimes(3)
    expect(waits).toEqual([1000, 2000])
    expect(onRetry).toHaveBeenNthCalledWith(2, passing, 2, 2000)
  })

  it('throws a lasting failure at once', async () => {
    const fn = vi.fn().mockRejectedValueOnce(passing).mockRejectedValueOnce(lasting)
    await expect(retry(fn, { shouldRetry, wait: async () => {} })).rejects.toBe(lasting)
    expect(fn).toHaveBeenCalledTimes(2)
  })

  it('stops when its signal is aborted, during a wait', async () => {
    vi.useFakeTimers()
    try {
      const ctl = new AbortController()
      const fn = vi.fn().mockRejectedValue(passing)
      const done = retry(fn, { shouldRetry, signal: ctl.signal }).catch((e: unknown) => e)
      await vi.advanceTimersByTimeAsync(1000) // second try, then a 2 s wait
      ctl.abort(new Error('left the page'))
      expect(await done).toEqual(new Error('left the page'))
      expect(fn).toHaveBeenCalledTimes(2)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('sleep', () => {
  it('rejects at once on an aborted signal', async () => {
    const ctl = new AbortController()
    ctl.abort('gone')
    await expect(sleep(10, ctl.signal)).rejects.toBe('gone')
  })
})
