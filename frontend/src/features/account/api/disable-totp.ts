import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { TotpCodeRequest } from '@/types/api'
import { accountKeys } from './types'

export type DisableTotpInput = TotpCodeRequest

/** Turns two-step verification off (the password and a code). */
export const disableTotp = (input: DisableTotpInput) => api.post<void>('/api/me/mfa/totp/disable', input)

export function useDisableTotp() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: disableTotp, onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.account }) })
}
