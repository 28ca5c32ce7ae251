import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Session } from '@/types/api'

// The session's shapes are declared in src/types/api.ts; a guest gets user null.
export type { Access, Role, Session, User } from '@/types/api'

export const sessionQueryKey = ['session'] as const

export const getSession = () => api.get<Session>('/api/session')

export const sessionQueryOptions = () => queryOptions({ queryKey: sessionQueryKey, queryFn: getSession, staleTime: 60_000 })

export function useSession() {
  return useQuery(sessionQueryOptions())
}
