import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import type { AreaResult, Progress, Trend } from '@/types/api'

export type { AreaResult, Progress, Trend }

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
