import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import type { Rubric, RubricRequest } from '@/types/api'
import { configKeys, type DegreeConfig } from './types'

export type RubricInput = RubricRequest & { degreeId: string }

/** updateRubric saves a new version of the degree's rubric (weights must sum to 100). */
export const updateRubric = ({ degreeId, criteria, passScore }: RubricInput) =>
  api.put<Rubric>(`/api/admin/config/${encodeURIComponent(degreeId)}/rubric`, { criteria, passScore } satisfies RubricRequest)

export function useUpdateRubric() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: updateRubric,
    onSuccess: (r) => qc.setQueryData<DegreeConfig>(configKeys.one(r.degreeId), (old) => (old ? { ...old, rubric: r } : old)),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: configKeys.all })
      void qc.invalidateQueries({ queryKey: attemptKeys.rubrics })
    },
  })
}
