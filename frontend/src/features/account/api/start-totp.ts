import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { PasswordRequest, TotpSetup } from '@/types/api'

/** Begins two-step verification: a new secret, in force once confirmed with a code. */
export const startTotp = (password: string) => api.post<TotpSetup>('/api/me/mfa/totp', { password } satisfies PasswordRequest)

export function useStartTotp() {
  return useMutation({ mutationFn: startTotp })
}
