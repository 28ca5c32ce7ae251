// Blueprint timings are whole seconds on the server; tutors edit the long
// ones as minutes and seconds.
import type { Bound } from '@/types/api'

export type MinSec = { min: number; sec: number }

/** splitSeconds turns 125 into {min: 2, sec: 5}. */
export function splitSeconds(total: number): MinSec {
  const t = Math.max(0, Math.round(total))
  return { min: Math.floor(t / 60), sec: t % 60 }
}

/** joinSeconds is the inverse of splitSeconds; blank or invalid parts count as 0. */
export function joinSeconds(min: number | string, sec: number | string): number {
  const m = toInt(min)
  const s = toInt(sec)
  return m * 60 + s
}

function toInt(v: number | string): number {
  const n = typeof v === 'number' ? v : Number(String(v).trim() || '0')
  return Number.isFinite(n) ? Math.trunc(n) : 0
}

/** formatDuration says a length of time in words: "20 min", "1 min 30 s", "45 s". */
export function formatDuration(total: number): string {
  const { min, sec } = splitSeconds(total)
  if (min === 0) return `${sec} s`
  if (sec === 0) return `${min} min`
  return `${min} min ${sec} s`
}

/** rangeText describes a bound in words: "entre 10 min y 60 min". */
export function rangeText(bound: Bound, unit: 'seconds' | 'count' = 'seconds'): string {
  if (unit === 'count') return `entre ${bound.min} y ${bound.max}`
  return `entre ${formatDuration(bound.min)} y ${formatDuration(bound.max)}`
}

/** outOfBounds reports a value outside its bound, in Spanish, or null. */
export function outOfBounds(value: number, bound: Bound, unit: 'seconds' | 'count' = 'seconds'): string | null {
  if (!Number.isFinite(value) || value < bound.min || value > bound.max) return `Debe estar ${rangeText(bound, unit)}.`
  return null
}
