import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Case } from '@/types/api'
import { caseKeys } from './types'

export const getCase = (id: string) => api.get<Case>(`/api/admin/cases/${encodeURIComponent(id)}`)

export const caseQueryOptions = (id: string) => queryOptions({ queryKey: caseKeys.one(id), queryFn: () => getCase(id) })

export function useCase(id: string) {
  return useQuery(caseQueryOptions(id))
}
