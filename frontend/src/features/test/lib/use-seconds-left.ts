import { useEffect, useEffectEvent, useState } from 'react'
import type { Phase } from '@/types/api'
import { serverClock, remainingMs } from './clock'

// phaseRemainingMs is the time left in a timed phase by the server clock:
// frozen while paused, null for untimed phases.
export function phaseRemainingMs(
  p: Pick<Phase, 'limitSec' | 'usedSec' | 'deadline' | 'pausedAt'> | undefined,
  serverNow: number,
): number | null {
  if (!p || p.limitSec <= 0) return null
  if (p.pausedAt || !p.deadline) return Math.max(0, (p.limitSec - p.usedSec) * 1000)
  return remainingMs(p.deadline, serverNow)
}

// useSecondsLeft follows the whole seconds left in a phase (rounded up), re-
// rendering once a second rather than on every tick. The value always
// belongs to the phase passed in: a new phase is computed at once, never
// shown with the previous phase's last reading (which would be 0 right after
// a phase ran out, and end the next phase at once).
export function useSecondsLeft(
  p: Pick<Phase, 'limitSec' | 'usedSec' | 'deadline' | 'pausedAt'> | undefined,
  phaseKey: string | number,
): number | null {
  const key = p ? `${phaseKey}|${p.limitSec}|${p.usedSec}|${p.deadline}|${p.pausedAt}` : `${phaseKey}|none`
  const compute = () => {
    const ms = phaseRemainingMs(p, serverClock.now())
    return ms === null ? null : Math.max(0, Math.ceil(ms / 1000))
  }
  const [reading, setReading] = useState(() => ({ key, sec: compute() }))
  // The interval reads the phase of the latest render.
  const latest = useEffectEvent(compute)
  useEffect(() => {
    const tick = () => {
      const sec = latest()
      setReading((r) => (r.key === key && r.sec === sec ? r : { key, sec }))
    }
    tick()
    const t = setInterval(tick, 200)
    return () => clearInterval(t)
  }, [key])
  return reading.key === key ? reading.sec : compute()
}
