import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { RecoveryCodes, TotpCodeRequest } from '@/types/api'
import { accountKeys } from './types'

/** Puts two-step verification in force; returns the recovery codes, shown once. */
export const confirmTotp = (code: string) =>
  api.post<RecoveryCodes>('/api/me/mfa/totp/confirm', { code } satisfies Partial<TotpCodeRequest>)

export function useConfirmTotp() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: confirmTotp, onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.account }) })
}
