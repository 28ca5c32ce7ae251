import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import type { AttemptSummary } from '@/types/api'

export const getMyAttempts = () => api.get<AttemptSummary[]>('/api/me/attempts')

export const myAttemptsQueryOptions = () => queryOptions({ queryKey: attemptKeys.mine, queryFn: getMyAttempts, staleTime: 0 })

export function useMyAttempts() {
  return useQuery(myAttemptsQueryOptions())
}
