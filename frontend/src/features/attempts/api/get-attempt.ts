import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import type { Attempt } from '@/types/api'

export const getAttempt = (id: string) => api.get<Attempt>(`/api/attempts/${encodeURIComponent(id)}`)

export const attemptQueryOptions = (id: string) => queryOptions({ queryKey: attemptKeys.one(id), queryFn: () => getAttempt(id) })

export function useAttempt(id: string) {
  return useQuery(attemptQueryOptions(id))
}
