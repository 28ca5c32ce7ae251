import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { ltiKeys, type LoadFromCourseResult } from './lti-types'
import { groupKeys } from './types'

export type LoadFromCourseInput = { courseId: string; degree: string }

export const loadGroupFromCourse = (input: LoadFromCourseInput) => api.post<LoadFromCourseResult>('/api/admin/lti/group', input)

export function useLoadGroupFromCourse() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: loadGroupFromCourse,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: groupKeys.all })
      void qc.invalidateQueries({ queryKey: ltiKeys.all })
    },
  })
}
