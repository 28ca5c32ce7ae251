import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys, type AttemptSummary } from '@/features/attempts/api/types'
import { pathSegment } from '../lib/students'

/** A student's attempts in the tutor's groups, newest first. */
export const getStudentAttempts = (email: string) => api.get<AttemptSummary[]>(`/api/admin/students/${pathSegment(email)}/attempts`)

export const studentAttemptsQueryOptions = (email: string) =>
  queryOptions({ queryKey: attemptKeys.ofStudent(email.toLowerCase()), queryFn: () => getStudentAttempts(email) })

export function useStudentAttempts(email: string) {
  return useQuery(studentAttemptsQueryOptions(email))
}
