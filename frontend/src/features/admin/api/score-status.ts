import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { storeAnswer } from '@/lib/store-answer'
import { ltiKeys, type ScoreStatus } from './lti-types'

const path = (attemptId: string) => `/api/admin/lti/attempts/${encodeURIComponent(attemptId)}/score`

export const getScoreStatus = (attemptId: string) => api.get<ScoreStatus>(path(attemptId))

export const scoreStatusQueryOptions = (attemptId: string, gradedAt: string) =>
  queryOptions({
    queryKey: ltiKeys.score(attemptId, gradedAt),
    queryFn: () => getScoreStatus(attemptId),
    // While the grade is on its way, look again every few seconds.
    refetchInterval: (q) => (q.state.data?.state === 'pending' ? 3000 : false),
  })

export function useScoreStatus(attemptId: string, gradedAt: string) {
  return useQuery(scoreStatusQueryOptions(attemptId, gradedAt))
}

export type SendScoreInput = { attemptId: string; gradedAt: string }

export const sendScore = ({ attemptId }: SendScoreInput) => api.post<ScoreStatus>(path(attemptId), {})

export function useSendScore() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: sendScore,
    // A poll sent before the press may land after it with the state before.
    onSuccess: (st, { attemptId, gradedAt }) => storeAnswer(qc, ltiKeys.score(attemptId, gradedAt), st),
  })
}
