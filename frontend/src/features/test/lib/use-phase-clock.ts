import type { Attempt } from '@/types/api'
import { useSecondsLeft } from './use-seconds-left'
import { useTimeWarnings } from './use-time-warnings'

// usePhaseClock follows the current phase of a running attempt by the
// server's clock: the whole seconds left (null when untimed), whether the
// time is up (a running timed phase at 0), and the 2:00 and 0:30 warnings.
export function usePhaseClock(a: Pick<Attempt, 'current' | 'phases'>) {
  const cur = a.current
  const phase = a.phases[cur]
  const paused = !!phase?.pausedAt
  const secondsLeft = useSecondsLeft(phase, cur)
  const expired = !!phase?.deadline && !paused && secondsLeft === 0
  const warning = useTimeWarnings(secondsLeft, phase?.limitSec ?? 0, cur, paused)
  return { cur, phase, paused, secondsLeft, expired, warning }
}
