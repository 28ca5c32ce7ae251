import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { groupKeys, type Group } from './types'

export const finalizeGroup = () => api.post<{ group: Group }>('/api/admin/group/finalize')

export function useFinalizeGroup() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: finalizeGroup,
    onSettled: () => qc.invalidateQueries({ queryKey: groupKeys.all }),
  })
}
