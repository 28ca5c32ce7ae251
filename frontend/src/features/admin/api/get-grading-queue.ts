import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import type { AttemptSummary } from '@/types/api'

/** The finished, ungraded attempts of the tutor's groups, newest first. */
export const getGradingQueue = () => api.get<AttemptSummary[]>('/api/admin/grading')

export const gradingQueueQueryOptions = () => queryOptions({ queryKey: attemptKeys.grading, queryFn: getGradingQueue })

export function useGradingQueue() {
  return useQuery(gradingQueueQueryOptions())
}
