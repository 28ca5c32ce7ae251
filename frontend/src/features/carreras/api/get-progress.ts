import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import type { AttemptSummary } from '@/types/api'

export type Trend = 'sube' | 'baja' | 'estable' | ''

export type Progress = {
  attempts: number
  finished: number
  lastScore: number | null
  average: number | null
  trend: Trend
  lastActivity: string | null
  byCriterion: { id: string; name: string; group?: string; points: { at: string; level: number }[] }[]
  recent: AttemptSummary[]
  /** Finished attempts per area of law, weakest average first. */
  byArea: AreaResult[]
  /** Where a "Sorteo dirigido" would aim now; null without results yet. */
  directed: { area: string; difficulty: string; reason: string } | null
}

export type AreaResult = { area: string; attempts: number; average: number; passed: number }

export const getProgress = () => api.get<Progress>('/api/me/progress')

export const progressQueryOptions = () => queryOptions({ queryKey: attemptKeys.progress, queryFn: getProgress, staleTime: 0 })

export function useProgress() {
  return useQuery(progressQueryOptions())
}

// trendText puts the trend in words.
export function trendText(t: Trend): string {
  switch (t) {
    case 'sube':
      return 'Su nota sube'
    case 'baja':
      return 'Su nota baja'
    case 'estable':
      return 'Su nota se mantiene estable'
    default:
      return 'Aún no hay suficientes intentos para ver una tendencia'
  }
}
