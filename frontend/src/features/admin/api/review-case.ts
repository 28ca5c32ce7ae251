import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Case } from '@/types/api'
import { caseKeys } from './types'

/** reviewCase records that the signed-in tutor reviewed the case's content (it stops being demo content). */
export const reviewCase = (id: string) => api.post<Case>(`/api/admin/cases/${encodeURIComponent(id)}/review`)

export function useReviewCase() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: reviewCase,
    onSuccess: (c) => c.id && qc.setQueryData(caseKeys.one(c.id), c),
    onSettled: () => qc.invalidateQueries({ queryKey: caseKeys.all }),
  })
}
