import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { sessionQueryKey, type Session } from './get-session'

export type LoginInput = { email: string; password: string }

export const login = (input: LoginInput) => api.post<Session>('/api/auth/login', input)

export function useLogin() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: login,
    onSuccess: (session) => {
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'config' })
      qc.setQueryData(sessionQueryKey, session)
    },
  })
}
