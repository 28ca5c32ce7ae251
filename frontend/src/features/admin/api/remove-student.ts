import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { RemoveStudentRequest } from '@/types/api'
import { groupKeys } from './types'

// removeStudent takes one student out of the tutor's active group; their
// attempts stay with the group. The address goes in the body, never in the
// URL (URLs are written to access logs).
export const removeStudent = (email: string) => api.post<void>('/api/admin/group/students/remove', { email } satisfies RemoveStudentRequest)

export function useRemoveStudent() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: removeStudent,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: groupKeys.all })
      void qc.invalidateQueries({ queryKey: groupKeys.students })
    },
  })
}
