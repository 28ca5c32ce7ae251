// Server clock: phase deadlines are server times, so the countdown must use
// the server's "now", not the browser's (a phone's clock can be minutes off).
// Each attempt response carries serverTime; with the request's send and
// receive times it gives an estimate of the offset (server - local). The
// estimate from the fastest round trip is the most precise.

export type ClockSample = { offsetMs: number; rttMs: number; at: number }

// sampleOf estimates the offset from one request: the server stamped
// serverTime somewhere between sentAt and receivedAt (local times); the
// midpoint is the best guess.
export function sampleOf(serverTime: string, sentAt: number, receivedAt: number): ClockSample | null {
  const server = Date.parse(serverTime)
  if (!Number.isFinite(server) || receivedAt < sentAt) return null
  const mid = sentAt + (receivedAt - sentAt) / 2
  return { offsetMs: server - mid, rttMs: receivedAt - sentAt, at: receivedAt }
}

// bestOffset picks the offset of the fastest round trip among recent
// samples (fresher than maxAgeMs; the newest one when all are older).
export function bestOffset(samples: ClockSample[], now: number, maxAgeMs = 10 * 60_000): number {
  if (samples.length === 0) return 0
  const fresh = samples.filter((s) => now - s.at <= maxAgeMs)
  const pool = fresh.length > 0 ? fresh : [samples.reduce((a, b) => (b.at > a.at ? b : a))]
  return pool.reduce((a, b) => (b.rttMs < a.rttMs ? b : a)).offsetMs
}

// ServerClock keeps the last few samples and answers the server's now.
export class ServerClock {
  private samples: ClockSample[] = []
  private readonly keep: number
  private readonly localNow: () => number

  constructor(localNow: () => number = Date.now, keep = 8) {
    this.localNow = localNow
    this.keep = keep
  }

  note(serverTime: string, sentAt: number, receivedAt: number) {
    const s = sampleOf(serverTime, sentAt, receivedAt)
    if (!s) return
    this.samples = [...this.samples, s].slice(-this.keep)
  }

  get offsetMs(): number {
    return bestOffset(this.samples, this.localNow())
  }

  now(): number {
    return this.localNow() + this.offsetMs
  }
}

// The page's one server clock.
export const serverClock = new ServerClock()

// remainingMs is the time left until deadline by the server clock.
export function remainingMs(deadline: string | null, serverNow: number): number | null {
  if (!deadline) return null
  const d = Date.parse(deadline)
  return Number.isFinite(d) ? d - serverNow : null
}

// formatClock shows a countdown as m:ss (h:mm:ss past an hour); never negative.
// Seconds are rounded up so that "0:00" appears only when time is up.
export function formatClock(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const ss = String(s).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

// spokenDuration says a number of seconds in Spanish words ("2 minutos y 30 segundos").
export function spokenDuration(sec: number): string {
  const total = Math.max(0, Math.round(sec))
  const m = Math.floor(total / 60)
  const s = total % 60
  const mins = m === 1 ? '1 minuto' : `${m} minutos`
  const secs = s === 1 ? '1 segundo' : `${s} segundos`
  if (m === 0) return secs
  if (s === 0) return mins
  return `${mins} y ${secs}`
}

// Warnings before the end of a timed phase: at 2:00 and at 0:30 left.
export const WARNINGS = [
  { atSec: 120, level: 'soon', message: 'Quedan 2 minutos.' },
  { atSec: 30, level: 'urgent', message: 'Quedan 30 segundos.' },
] as const

export type WarningLevel = 'none' | 'soon' | 'urgent'

// warningLevel is the countdown's look: a warning applies only to phases
// longer than its threshold (a 20 s think time is not "2 minutes left").
export function warningLevel(limitSec: number, remainingSec: number): WarningLevel {
  let level: WarningLevel = 'none'
  for (const w of WARNINGS) if (limitSec > w.atSec && remainingSec <= w.atSec) level = w.level
  return level
}

// crossedWarning returns the warning whose threshold was crossed between two
// readings of the remaining time (previous > threshold >= current), if any:
// the announcement is made once, when it happens, not on a reload after it.
export function crossedWarning(limitSec: number, prevSec: number, nowSec: number): (typeof WARNINGS)[number] | null {
  let hit: (typeof WARNINGS)[number] | null = null
  for (const w of WARNINGS) {
    if (limitSec > w.atSec && prevSec > w.atSec && nowSec <= w.atSec && nowSec > 0) hit = w
  }
  return hit
}
