import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { PasswordResetInput } from '@/types/api'

export type { PasswordResetInput }

/** Sets a new password with the token of a reset link (it works once). */
export const resetPassword = (input: PasswordResetInput) => api.post<void>('/api/auth/password-reset', input)

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword })
}

const RESET_KEY = 'restablecer'

/**
 * resetTokenFrom reads a reset link's token from a location hash
 * ("#restablecer=TOKEN"). Links carry it in the fragment, which browsers
 * never send to the server, so it stays out of access logs and Referer
 * headers.
 */
export function resetTokenFrom(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''))
  const token = params.get(RESET_KEY)
  return token && /^[A-Za-z0-9_-]{20,128}$/.test(token) ? token : null
}
