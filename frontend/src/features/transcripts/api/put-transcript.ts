import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/features/attempts/api/types'
import type { Segment, Transcript, TranscriptSource } from './types'

export type PutTranscriptInput = {
  attemptId: string
  recordingId: string
  source: Extract<TranscriptSource, 'browser' | 'edited'>
  language?: string
  segments: Segment[]
}

export const putTranscript = ({ attemptId, recordingId, ...body }: PutTranscriptInput) =>
  api.put<Transcript>(`/api/attempts/${encodeURIComponent(attemptId)}/recordings/${encodeURIComponent(recordingId)}/transcript`, {
    language: 'es-EC',
    ...body,
  })

// useCorrectTranscript saves a person's correction; the evidence is
// recomputed by the server, so the attempt is fetched again.
export function useCorrectTranscript() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (input: Omit<PutTranscriptInput, 'source'>) => putTranscript({ ...input, source: 'edited' }),
    onSettled: (_d, _e, v) => qc.invalidateQueries({ queryKey: attemptKeys.one(v.attemptId) }),
  })
}
