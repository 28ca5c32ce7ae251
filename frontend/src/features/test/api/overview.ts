import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { AttemptSummary, Blueprint, Difficulty, Rubric } from '@/types/api'

export type ExamOverview = {
  degree: { id: string; nombre: string }
  blueprint: Blueprint
  rubric: Rubric
  areas: string[]
  /** The difficulties of the degree's active cases, in display order. */
  difficulties: { value: Difficulty; label: string }[]
  inProgress: AttemptSummary | null
}

export const getOverview = () => api.get<ExamOverview>('/api/exam/overview')

export const overviewQueryOptions = () => queryOptions({ queryKey: ['exam', 'overview'], queryFn: getOverview, staleTime: 0 })

export function useOverview(enabled = true) {
  return useQuery({ ...overviewQueryOptions(), enabled })
}
