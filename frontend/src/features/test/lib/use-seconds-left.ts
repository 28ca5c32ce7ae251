import { useEffect, useState } from 'react'
import type { Phase } from '@/features/attempts/api/types'
import { serverClock, remainingMs } from './clock'

// phaseRemainingMs is the time left in a timed phase by the server clock:
// frozen while paused, null for untimed phases.
export function phaseRemainingMs(p: Pick<Phase, 'limitSec' | 'usedSec' | 'deadline' | 'pausedAt'> | undefined, serverNow: number): number | null {
  if (!p || p.limitSec <= 0) return null
  if (p.pausedAt || !p.deadline) return Math.max(0, (p.limitSec - p.usedSec) * 1000)
  return remainingMs(p.deadline, serverNow)
}

// useSecondsLeft follows the whole seconds left in a phase (rounded up), re-
// rendering once a second rather than on every tick.
export function useSecondsLeft(p: Pick<Phase, 'limitSec' | 'usedSec' | 'deadline' | 'pausedAt'> | undefined): number | null {
  const compute = () => {
    const ms = phaseRemainingMs(p, serverClock.now())
    return ms === null ? null : Math.max(0, Math.ceil(ms / 1000))
  }
  const [sec, setSec] = useState(compute)
  const limit = p?.limitSec
  const used = p?.usedSec
  const deadline = p?.deadline
  const pausedAt = p?.pausedAt
  useEffect(() => {
    const tick = () => setSec(compute())
    tick()
    const t = setInterval(tick, 200)
    return () => clearInterval(t)
    // compute depends only on these fields
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [limit, used, deadline, pausedAt])
  return sec
}
