import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { pathSegment } from '../lib/students'
import { groupKeys } from './types'

// removeStudent takes one student out of the tutor's active group; their
// attempts stay with the group.
export const removeStudent = (email: string) => api.delete<void>(`/api/admin/group/students/${pathSegment(email)}`)

export function useRemoveStudent() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: removeStudent,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: groupKeys.all })
      void qc.invalidateQueries({ queryKey: ['admin', 'students'] })
    },
  })
}
