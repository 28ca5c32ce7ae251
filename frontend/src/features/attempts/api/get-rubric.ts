import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import type { Rubric } from '@/types/api'

export const getRubric = (degree = '') => api.get<Rubric>(`/api/rubric${degree ? `?degree=${encodeURIComponent(degree)}` : ''}`)

export const rubricQueryOptions = (degree = '') =>
  queryOptions({ queryKey: attemptKeys.rubric(degree), queryFn: () => getRubric(degree), staleTime: 5 * 60_000 })

export function useRubric(degree = '') {
  return useQuery(rubricQueryOptions(degree))
}
