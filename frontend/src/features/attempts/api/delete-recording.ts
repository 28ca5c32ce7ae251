import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'

export const deleteRecording = ({ attemptId, recordingId }: { attemptId: string; recordingId: string }) =>
  api.delete<void>(`/api/attempts/${encodeURIComponent(attemptId)}/recordings/${encodeURIComponent(recordingId)}`)

export function useDeleteRecording() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: deleteRecording,
    onSettled: (_d, _e, v) => qc.invalidateQueries({ queryKey: attemptKeys.one(v.attemptId) }),
  })
}
