import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { LoadGroupResult } from '@/types/api'
import { groupKeys } from './types'

export type { LoadGroupResult }

export const loadGroup = (file: File) => {
  const form = new FormData()
  form.append('file', file)
  return api.post<LoadGroupResult>('/api/admin/group', form)
}

export function useLoadGroup() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: loadGroup,
    onSettled: () => qc.invalidateQueries({ queryKey: groupKeys.all }),
  })
}
