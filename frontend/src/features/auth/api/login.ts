import { useMutation, useQueryClient } from '@tanstack/react-query'
import { isUserData } from '@/lib/config'
import { api } from '@/lib/api-client'
import { sessionQueryKey, type Session } from './get-session'

export type LoginInput = { email: string; password: string }

/**
 * The answer to a sign-in: the new session, or (mfaRequired) a guest's
 * session while the server waits for the second factor (POST
 * /api/auth/login/code).
 */
export type LoginResult = Session & { mfaRequired?: boolean; device?: string }

// A browser that signed in to an account before shows the server the
// device token it was given then: someone else's failed guesses from the
// same network never lock that browser out of that account.
const deviceKey = (email: string) => `simulador.device:${email.trim().toLowerCase()}`

function storedDevice(email: string): string | undefined {
  try {
    return localStorage.getItem(deviceKey(email)) ?? undefined
  } catch {
    return undefined
  }
}

function keepDevice(email: string, device: string | undefined) {
  if (!device) return
  try {
    localStorage.setItem(deviceKey(email), device)
  } catch {
    // Storage blocked: the browser is simply not known next time.
  }
}

export const login = async (input: LoginInput) => {
  const res = await api.post<LoginResult>('/api/auth/login', { ...input, device: storedDevice(input.email) })
  keepDevice(input.email, res.device)
  return res
}

// signedIn forgets every cached answer of the previous user and keeps the
// new session.
function useSignedIn() {
  const qc = useQueryClient()
  return (session: Session) => {
    qc.removeQueries({ predicate: isUserData })
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
