import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { ExamOverview } from '@/types/api'

export type { ExamOverview }

export const getOverview = () => api.get<ExamOverview>('/api/exam/overview')

export const overviewQueryOptions = () => queryOptions({ queryKey: ['exam', 'overview'], queryFn: getOverview, staleTime: 0 })

export function useOverview(enabled = true) {
  return useQuery({ ...overviewQueryOptions(), enabled })
}
