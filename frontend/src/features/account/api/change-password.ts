import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { ChangePasswordInput, PasswordChanged } from '@/types/api'
import { accountKeys } from './types'

export type { ChangePasswordInput }

/** Changes the password; every other session ends. */
export const changePassword = (input: ChangePasswordInput) => api.put<PasswordChanged>('/api/me/password', input)

export function useChangePassword() {
  const qc = useQueryClient()
  return useMutation({ mutationFn: changePassword, onSuccess: () => qc.invalidateQueries({ queryKey: accountKeys.sessions }) })
}
