import { useMutation, useQueryClient } from '@tanstack/react-query'
import { isUserData } from '@/lib/config'
import { api } from '@/lib/api-client'
import type { LoginCodeRequest, LoginRequest, LoginResult, Session } from '@/types/api'
import { sessionQueryKey } from './get-session'

export type { LoginResult }

/** What the sign-in form gives; the browser adds its device token, if it has one. */
export type LoginInput = Omit<LoginRequest, 'device'>

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
  const res = await api.post<LoginResult>('/api/auth/login', { ...input, device: storedDevice(input.email) } satisfies LoginRequest)
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

export const loginCode = (code: string) => api.post<LoginResult>('/api/auth/login/code', { code } satisfies LoginCodeRequest)

/** The second step of a sign-in: a code from the authenticator app or a recovery code. */
export function useLoginCode() {
  const signedIn = useSignedIn()
  return useMutation({ mutationFn: loginCode, onSuccess: signedIn })
}
