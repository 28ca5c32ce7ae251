import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { accountKeys, type SessionItem } from './types'

/** The user's active sessions, newest first. */
export const getSessions = () => api.get<SessionItem[]>('/api/me/sessions')

export const sessionsQueryOptions = () => queryOptions({ queryKey: accountKeys.sessions, queryFn: getSessions })

export function useSessions() {
  return useQuery(sessionsQueryOptions())
}
