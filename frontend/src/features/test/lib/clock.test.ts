import { describe, expect, it } from 'vitest'
import { bestOffset, crossedWarning, formatClock, remainingMs, sampleOf, ServerClock, spokenDuration, warningLevel } from './clock'
import { phaseRemainingMs } from './use-seconds-left'

describe('server clock', () => {
  it('estimates the offset at the midpoint of the round trip', () => {
    // Local clock 10 s behind: sent at local 1000, received at 1200, server said 11100.
    const s = sampleOf(new Date(11_100).toISOString(), 1000, 1200)
    expect(s).toEqual({ offsetMs: 10_000, rttMs: 200, at: 1200 })
    expect(sampleOf('nonsense', 0, 1)).toBeNull()
  })

  it('prefers the fastest fresh round trip', () => {
    const samples = [
      { offsetMs: 5000, rttMs: 900, at: 1000 },
      { offsetMs: 4800, rttMs: 50, at: 2000 },
      { offsetMs: 5200, rttMs: 400, at: 3000 },
    ]
    expect(bestOffset(samples, 4000)).toBe(4800)
    expect(bestOffset([], 4000)).toBe(0)
    // All samples stale: the newest wins.
    expect(bestOffset(samples, 10 * 60_000 + 5000)).toBe(5200)
  })

  it('corrects a skewed local clock', () => {
    let local = 1_000_000
    const clock = new ServerClock(() => local)
    expect(clock.now()).toBe(1_000_000)
    // The server is 90 s ahead.
    clock.note(new Date(1_000_000 + 90_000 + 100).toISOString(), 1_000_000, 1_000_200)
    local = 1_001_000
    expect(clock.now()).toBe(1_001_000 + 90_000)
    const deadline = new Date(1_001_000 + 90_000 + 30_000).toISOString()
    expect(remainingMs(deadline, clock.now())).toBe(30_000)
    expect(remainingMs(null, clock.now())).toBeNull()
  })
})

describe('countdown text', () => {
  it('rounds up and never goes negative', () => {
    expect(formatClock(600_000)).toBe('10:00')
    expect(formatClock(119_001)).toBe('2:00')
    expect(formatClock(119_000)).toBe('1:59')
    expect(formatClock(900)).toBe('0:01')
    expect(formatClock(0)).toBe('0:00')
    expect(formatClock(-5000)).toBe('0:00')
    expect(formatClock(3_723_000)).toBe('1:02:03')
  })

  it('says durations in Spanish', () => {
    expect(spokenDuration(1200)).toBe('20 minutos')
    expect(spokenDuration(20)).toBe('20 segundos')
    expect(spokenDuration(61)).toBe('1 minuto y 1 segundo')
    expect(spokenDuration(150)).toBe('2 minutos y 30 segundos')
  })
})

describe('warnings at 2:00 and 0:30', () => {
  it('colours the countdown only for phases longer than the threshold', () => {
    expect(warningLevel(600, 300)).toBe('none')
    expect(warningLevel(600, 120)).toBe('soon')
    expect(warningLevel(600, 31)).toBe('soon')
    expect(warningLevel(600, 30)).toBe('urgent')
    expect(warningLevel(120, 100)).toBe('none') // a 2-minute answer is not warned at its start
    expect(warningLevel(120, 25)).toBe('urgent')
    expect(warningLevel(20, 10)).toBe('none')
  })

  it('announces a threshold once, when it is crossed', () => {
    expect(crossedWarning(600, 121, 120)?.message).toBe('Quedan 2 minutos.')
    expect(crossedWarning(600, 120, 119)).toBeNull()
    expect(crossedWarning(600, 31, 30)?.message).toBe('Quedan 30 segundos.')
    // A jump over both (a sleeping tab) announces the nearer one.
    expect(crossedWarning(600, 200, 10)?.message).toBe('Quedan 30 segundos.')
    // Not at the end, and not for short phases.
    expect(crossedWarning(600, 1, 0)).toBeNull()
    expect(crossedWarning(20, 40, 10)).toBeNull()
  })
})

describe('phaseRemainingMs', () => {
  const now = Date.parse('2026-11-22T10:00:00Z')
  it('counts down to the deadline, frozen while paused, null when untimed', () => {
    const running = { limitSec: 600, usedSec: 100, deadline: '2026-11-22T10:08:20Z', pausedAt: null }
    expect(phaseRemainingMs(running, now)).toBe(500_000)
    expect(phaseRemainingMs({ ...running, deadline: null, pausedAt: '2026-11-22T09:59:00Z' }, now)).toBe(500_000)
    expect(phaseRemainingMs({ ...running, limitSec: 0 }, now)).toBeNull()
    expect(phaseRemainingMs(undefined, now)).toBeNull()
  })
})
