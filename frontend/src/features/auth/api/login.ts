import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { sessionQueryKey, type Session } from './get-session'

export type LoginInput = { email: string; password: string }

/**
 * The answer to a sign-in: the new session, or (mfaRequired) a guest's
 * session while the server waits for the second factor (POST
 * /api/auth/login/code).
 */
export type LoginResult = Session & { mfaRequired?: boolean }

export const login = (input: LoginInput) => api.post<LoginResult>('/api/auth/login', input)

// signedIn forgets every cached answer of the previous user and keeps the
// new session.
function useSignedIn() {
  const qc = useQueryClient()
  return (session: Session) => {
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'config' })
    qc.setQueryData(sessionQueryKey, { user: session.user, access: session.access })
  }
}

export function useLogin() {
  const signedIn = useSignedIn()
  return useMutation({
    mutationFn: login,
    onSuccess: (res) => {
      if (!res.mfaRequired) signedIn(res)
    },
  })
}

export const loginCode = (code: string) => api.post<LoginResult>('/api/auth/login/code', { code })

/** The second step of a sign-in: a code from the authenticator app or a recovery code. */
export function useLoginCode() {
  const signedIn = useSignedIn()
  return useMutation({ mutationFn: loginCode, onSuccess: signedIn })
}
