import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import type { Attempt, Levels, LevelsRequest } from '@/types/api'

export type GradeInput = { attemptId: string; levels: Levels; comments: string }

export const gradeAttempt = ({ attemptId, levels, comments }: GradeInput) =>
  api.post<Attempt>(`/api/attempts/${encodeURIComponent(attemptId)}/grade`, { levels, comments } satisfies LevelsRequest)

export function useGradeAttempt() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: gradeAttempt,
    onSuccess: (a) => qc.setQueryData(attemptKeys.one(a.id), a),
    onSettled: () => qc.invalidateQueries({ queryKey: attemptKeys.all }),
  })
}
