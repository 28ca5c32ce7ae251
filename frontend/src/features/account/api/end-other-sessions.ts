import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { SessionsEnded } from '@/types/api'
import { accountKeys } from './types'

/** Ends every session of the user but this one. */
export const endOtherSessions = () => api.post<SessionsEnded>('/api/me/sessions/end-others')

export function useEndOtherSessions() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: endOtherSessions, onSettled: () => qc.invalidateQueries({ queryKey: accountKeys.sessions }) })
}
