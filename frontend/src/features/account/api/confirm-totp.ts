import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { accountKeys } from './types'

/** Puts two-step verification in force; returns the recovery codes, shown once. */
export const confirmTotp = (code: string) => api.post<{ recoveryCodes: string[] }>('/api/me/mfa/totp/confirm', { code })

export function useConfirmTotp() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: confirmTotp, onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.account }) })
}
