import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { embeddedJSON } from '@/lib/embedded-json'
import type { Session } from '@/types/api'

// The session's shapes are declared in src/types/api.ts; a guest gets user null.
export type { Access, Role, Session, User } from '@/types/api'

export const sessionQueryKey = ['session'] as const

export const getSession = () => api.get<Session>('/api/session')

// The server embeds a guest's session in a page requested without a
// session cookie (#app-session): the first page then paints without
// asking /api/session. It stands for the moment the page was served only,
// so it seeds the first session query and no later one (after a sign-in
// or a sign-out the answer comes from the server).
let servedAsGuest = embeddedJSON<Session>('app-session')

function takeServedSession(): Session | undefined {
  const s = servedAsGuest
  servedAsGuest = undefined
  return s
}

export const sessionQueryOptions = () =>
  queryOptions({ queryKey: sessionQueryKey, queryFn: getSession, initialData: takeServedSession, staleTime: 60_000 })

export function useSession() {
  return useQuery(sessionQueryOptions())
}
