import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { accountKeys } from './types'

/** Ends one of the user's other sessions. */
export const endSession = (id: string) => api.delete<void>(`/api/me/sessions/${encodeURIComponent(id)}`)

export function useEndSession() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: endSession, onSettled: () => qc.invalidateQueries({ queryKey: accountKeys.sessions }) })
}
