import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { UpdateFromCourseResult } from './lti-types'
import { groupKeys } from './types'

export const updateGroupFromCourse = () => api.post<UpdateFromCourseResult>('/api/admin/lti/group/update', {})

export function useUpdateGroupFromCourse() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: updateGroupFromCourse,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: groupKeys.all })
      void qc.invalidateQueries({ queryKey: groupKeys.students })
    },
  })
}
