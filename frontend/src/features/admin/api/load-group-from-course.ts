import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { LoadFromCourseInput } from '@/types/api'
import { ltiKeys, type LoadFromCourseResult } from './lti-types'
import { groupKeys } from './types'

export type { LoadFromCourseInput }

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
