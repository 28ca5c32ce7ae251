import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Blueprint } from '@/types/api'
import { configKeys, type DegreeConfig } from './types'

export const updateBlueprint = (bp: Blueprint) => api.put<Blueprint>(`/api/admin/config/${encodeURIComponent(bp.degreeId)}/blueprint`, bp)

export function useUpdateBlueprint() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: updateBlueprint,
    onSuccess: (bp) => qc.setQueryData<DegreeConfig>(configKeys.one(bp.degreeId), (old) => (old ? { ...old, blueprint: bp } : old)),
    onSettled: () => qc.invalidateQueries({ queryKey: configKeys.all }),
  })
}
