import { render, renderHook, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LevelMeter } from './LevelMeter'
import { LevelSampler, openLevelProbe, rmsToLevel, useAudioLevel, type LevelProbe } from './level'

// A Web Audio stand-in whose analyser reports a constant amplitude.
function stubAudio(amplitude: () => number) {
  const closed = vi.fn(() => Promise.resolve())
  const made = { contexts: 0 }
  class FakeAudioContext {
    state = 'running'
    constructor() {
      made.contexts++
    }
    createMediaStreamSource() {
      return { connect: vi.fn(), disconnect: vi.fn() }
    }
    createAnalyser() {
      return {
        fftSize: 0,
        getFloatTimeDomainData: (buf: Float32Array) => buf.fill(amplitude()),
      }
    }
    close = closed
  }
  vi.stubGlobal('AudioContext', FakeAudioContext)
  return { closed, made }
}

const stream = () => ({}) as MediaStream

describe('level', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('maps RMS to 0..1 on a -60..0 dBFS scale', () => {
    expect(rmsToLevel(0)).toBe(0)
    expect(rmsToLevel(0.0005)).toBe(0)
    expect(rmsToLevel(0.001)).toBe(0)
    expect(rmsToLevel(0.01)).toBeCloseTo(0.333, 3)
    expect(rmsToLevel(0.1)).toBeCloseTo(0.667, 3)
    expect(rmsToLevel(1)).toBe(1)
    expect(rmsToLevel(2)).toBe(1)
  })

  it('shares one AudioContext per stream and closes it with the last user', () => {
    const { closed, made } = stubAudio(() => 0.1)
    const s = stream()
    const a = openLevelProbe(s)!
    const b = openLevelProbe(s)!
    expect(made.contexts).toBe(1)
    expect(a.read()).toBeCloseTo(0.667, 3)
    a.release()
    a.release()
    expect(closed).not.toHaveBeenCalled()
    b.release()
    expect(closed).toHaveBeenCalledTimes(1)
  })

  it('has no probe without Web Audio', () => {
    vi.stubGlobal('AudioContext', undefined)
    expect(openLevelProbe(stream())).toBeNull()
    const sampler = new LevelSampler(stream())
    sampler.start()
    expect(sampler.available).toBe(false)
    expect(sampler.stop()).toEqual([])
  })

  it('useAudioLevel follows the analyser on animation frames and cleans up', async () => {
    let amp = 0.1
    const { closed } = stubAudio(() => amp)
    const s = stream()
    const { result, unmount, rerender } = renderHook(({ st }) => useAudioLevel(st), { initialProps: { st: s as MediaStream | null } })
    await vi.waitFor(() => expect(result.current).toBeCloseTo(0.667, 2))
    amp = 1
    await vi.waitFor(() => expect(result.current).toBe(1))
    rerender({ st: null })
    expect(result.current).toBe(0)
    expect(closed).toHaveBeenCalledTimes(1)
    unmount()
  })

  it('LevelSampler keeps one level per 200 ms of recorded time, pauses excluded', () => {
    vi.useFakeTimers()
    let t = 0
    let v = 0.5
    const release = vi.fn()
    const probe: LevelProbe = { read: () => v, release }
    const sampler = new LevelSampler(null, { probe, now: () => t })
    sampler.start()
    const advance = (ms: number) => {
      t += ms
      vi.advanceTimersByTime(ms)
    }
    advance(600)
    expect(sampler.levels).toEqual([0.5, 0.5, 0.5])
    v = 0.1
    advance(200)
    sampler.pause()
    advance(10_000) // paused: nothing sampled
    expect(sampler.levels).toHaveLength(4)
    sampler.resume()
    v = 0.9
    advance(400)
    expect(sampler.levels).toEqual([0.5, 0.5, 0.5, 0.1, 0.9, 0.9])
    expect(sampler.stop()).toHaveLength(6)
    expect(release).toHaveBeenCalled()
  })

  it('LevelSampler catches up when timers were throttled (background tab)', () => {
    vi.useFakeTimers()
    let t = 0
    const sampler = new LevelSampler(null, { probe: { read: () => 0.3, release() {} }, now: () => t })
    sampler.start()
    t = 1000 // the interval did not run for a whole second
    vi.advanceTimersByTime(200)
    expect(sampler.levels).toHaveLength(5)
  })

  it('LevelMeter is an accessible meter', () => {
    render(<LevelMeter level={0.42} />)
    const meter = screen.getByRole('meter', { name: 'Nivel del micrófono' })
    expect(meter).toHaveAttribute('aria-valuenow', '42')
    expect(meter).toHaveAttribute('aria-valuemin', '0')
    expect(meter).toHaveAttribute('aria-valuemax', '100')
  })
})
