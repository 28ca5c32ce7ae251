import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export type Role = 'estudiante' | 'tutor'

export type User = {
  id: string
  mail: string
  displayName: string
  givenName: string
  surname: string
  photoUrl: string
  role: Role
}

export type Access = { test: boolean; admin: boolean }

// Session is the server's answer to "who am I and where may I go". A guest
// gets user null.
export type Session = { user: User | null; access: Access }

export const sessionQueryKey = ['session'] as const

export const getSession = () => api.get<Session>('/api/session')

export const sessionQueryOptions = () => queryOptions({ queryKey: sessionQueryKey, queryFn: getSession, staleTime: 60_000 })

export function useSession() {
  return useQuery(sessionQueryOptions())
}
