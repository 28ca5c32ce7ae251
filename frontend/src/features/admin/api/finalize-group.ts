import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { FinalizedGroup } from '@/types/api'
import { groupKeys } from './types'

export const finalizeGroup = () => api.post<FinalizedGroup>('/api/admin/group/finalize')

export function useFinalizeGroup() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: finalizeGroup,
    onSettled: () => qc.invalidateQueries({ queryKey: groupKeys.all }),
  })
}
