import { useMutation, useQueryClient } from '@tanstack/react-query'
import { isUserData } from '@/lib/config'
import { api } from '@/lib/api-client'
import { clearLocalStorage } from '@/lib/storage'
import { sessionQueryKey, type Session } from './get-session'
import { clearMicrosoftCache } from './msal-cache'

export const logout = () => api.post<void>('/api/auth/logout')

const signedOut: Session = { user: null, access: { test: false, admin: false } }

// useLogout revokes the session on the server, clears local storage and
// MSAL's token cache, and forgets every cached answer that belonged to the
// user (docs/product.md, "Public pages and sign-in"). The caller's onSettled
// runs after all of it.
export function useLogout() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: logout,
    onSettled: async () => {
      clearLocalStorage()
      await clearMicrosoftCache()
      qc.removeQueries({ predicate: isUserData })
      qc.setQueryData(sessionQueryKey, signedOut)
    },
  })
}
