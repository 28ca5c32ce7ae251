import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import type { Segment, Transcript, TranscriptRequest, TranscriptSource } from '@/types/api'

export type PutTranscriptInput = {
  attemptId: string
  recordingId: string
  source: Extract<TranscriptSource, 'browser' | 'edited'>
  /** The language the text is in: the recognizer's (es-EC or es-ES); es-EC when unknown. */
  language?: string
  segments: Segment[]
}

export const putTranscript = ({ attemptId, recordingId, language, source, segments }: PutTranscriptInput) =>
  api.put<Transcript>(`/api/attempts/${encodeURIComponent(attemptId)}/recordings/${encodeURIComponent(recordingId)}/transcript`, {
    language: language || 'es-EC',
    source,
    segments,
  } satisfies TranscriptRequest)

// useCorrectTranscript saves a person's correction; the evidence is
// recomputed by the server, so the attempt is fetched again.
export function useCorrectTranscript() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (input: Omit<PutTranscriptInput, 'source'>) => putTranscript({ ...input, source: 'edited' }),
    onSettled: (_d, _e, v) => qc.invalidateQueries({ queryKey: attemptKeys.one(v.attemptId) }),
  })
}
