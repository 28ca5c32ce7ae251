import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Degree } from '@/types/api'

export type { Degree }

export const getDegrees = () => api.get<Degree[]>('/api/degrees')

export const degreesQueryKey = ['degrees'] as const

export const degreesQueryOptions = () => queryOptions({ queryKey: degreesQueryKey, queryFn: getDegrees, staleTime: 5 * 60_000 })

export function useDegrees() {
  return useQuery(degreesQueryOptions())
}
