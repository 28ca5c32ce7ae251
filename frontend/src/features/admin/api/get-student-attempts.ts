import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import type { AttemptSummary } from '@/types/api'

/**
 * A student's attempts in the tutor's groups, newest first. The student is
 * named by user id: a path reaches access logs, where an address would be
 * personal data.
 */
export const getStudentAttempts = (id: string) => api.get<AttemptSummary[]>(`/api/admin/students/${encodeURIComponent(id)}/attempts`)

export const studentAttemptsQueryOptions = (id: string) =>
  queryOptions({ queryKey: attemptKeys.ofStudent(id), queryFn: () => getStudentAttempts(id) })

export function useStudentAttempts(id: string) {
  return useQuery(studentAttemptsQueryOptions(id))
}
