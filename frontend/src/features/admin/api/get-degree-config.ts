import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { configKeys, type DegreeConfig } from './types'

export const getDegreeConfig = (degree: string) => api.get<DegreeConfig>(`/api/admin/config/${encodeURIComponent(degree)}`)

export const degreeConfigQueryOptions = (degree: string) =>
  queryOptions({ queryKey: configKeys.one(degree), queryFn: () => getDegreeConfig(degree), enabled: !!degree })

export function useDegreeConfig(degree: string) {
  return useQuery(degreeConfigQueryOptions(degree))
}
