import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { groupKeys, type Group } from './types'

export type LoadGroupResult = { skipped: boolean; group: Group }

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
