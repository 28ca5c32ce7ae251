import { afterEach, describe, expect, it, vi } from 'vitest'
import { forgetReloadForNewVersion, isStaleChunkError, leavingPage, reloadOnceForNewVersion } from './stale-chunk'

afterEach(() => {
  forgetReloadForNewVersion()
  vi.useRealTimers()
})

describe('stale chunks', () => {
  it('recognises each engine’s failed dynamic import', () => {
    for (const m of [
      'Failed to fetch dynamically imported module: /assets/x.js',
      'error loading dynamically imported module: /assets/x.js',
      'Importing a module script failed.',
    ])
      expect(isStaleChunkError(new Error(m))).toBe(true)
    expect(isStaleChunkError(new Error('Network error'))).toBe(false)
  })

  it('reloads once per tab', () => {
    const reload = vi.fn()
    expect(reloadOnceForNewVersion(reload)).toBe(true)
    expect(reloadOnceForNewVersion(reload)).toBe(false)
    expect(reload).toHaveBeenCalledOnce()
  })

  it('does not reload a page being left, and counts a called-off leave only for a while', () => {
    vi.useFakeTimers()
    const reload = vi.fn()
    window.dispatchEvent(new Event('beforeunload'))
    expect(leavingPage()).toBe(true)
    expect(reloadOnceForNewVersion(reload)).toBe(false)
    expect(reload).not.toHaveBeenCalled()
    vi.advanceTimersByTime(11_000)
    expect(leavingPage()).toBe(false)
    expect(reloadOnceForNewVersion(reload)).toBe(true)
  })
})
