import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { ltiKeys, type LtiCourses } from './lti-types'

export const getLtiCourses = () => api.get<LtiCourses>('/api/admin/lti/courses')

export const ltiCoursesQueryOptions = () => queryOptions({ queryKey: ltiKeys.courses, queryFn: getLtiCourses })

export function useLtiCourses() {
  return useQuery(ltiCoursesQueryOptions())
}
