// Figures and words about a student's attempts, for the tutor's tables.
import type { AttemptSummary } from '@/types/api'
import { summaryScore } from '@/lib/attempts'

/** trendText is the trend in words ("" means too few marks to tell). */
export function trendText(t: string | null | undefined): string {
  switch (t) {
    case 'sube':
      return 'Sube'
    case 'baja':
      return 'Baja'
    case 'estable':
      return 'Estable'
    default:
      return 'Sin datos'
  }
}

export type AttemptStats = { attempts: number; finished: number; graded: number; average: number | null }

/**
 * attemptStats counts a student's attempts and averages the marks of the
 * finished ones (the tutor's mark when graded, else the student's own),
 * as the server does for the group table.
 */
export function attemptStats(list: AttemptSummary[]): AttemptStats {
  let finished = 0
  let graded = 0
  const scores: number[] = []
  for (const a of list) {
    if (a.status !== 'finished') continue
    finished++
    if (a.graded) graded++
    const s = summaryScore(a)
    if (s !== null && s !== undefined) scores.push(s)
  }
  const average = scores.length ? Math.round((scores.reduce((x, y) => x + y, 0) / scores.length) * 100) / 100 : null
  return { attempts: list.length, finished, graded, average }
}
