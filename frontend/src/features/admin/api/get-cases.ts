import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Case } from '@/types/api'
import { caseKeys, type CaseFilters } from './types'

export const getCases = (f: CaseFilters) => {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(f)) if (v.trim()) params.set(k, v.trim())
  const qs = params.toString()
  return api.get<Case[]>(`/api/admin/cases${qs ? `?${qs}` : ''}`)
}

export const casesQueryOptions = (f: CaseFilters) =>
  queryOptions({ queryKey: caseKeys.list(f), queryFn: () => getCases(f), placeholderData: keepPreviousData })

export function useCases(f: CaseFilters) {
  return useQuery(casesQueryOptions(f))
}
