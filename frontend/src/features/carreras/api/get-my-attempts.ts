import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys, type AttemptSummary } from '@/features/attempts/api/types'

export const getMyAttempts = () => api.get<AttemptSummary[]>('/api/me/attempts')

export const myAttemptsQueryOptions = () => queryOptions({ queryKey: attemptKeys.mine, queryFn: getMyAttempts, staleTime: 0 })

export function useMyAttempts() {
  return useQuery(myAttemptsQueryOptions())
}
