import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { MicrosoftConfig } from '@/lib/config'
import { sessionQueryKey, type Session } from './get-session'

export type MicrosoftLoginResult = Session & { created: boolean }

export class MicrosoftNotConfiguredError extends Error {}

// signInWithMicrosoft runs the university-account popup and hands the ID
// token to the server, which verifies it. MSAL (about 70 kB) is loaded only
// here, when the button is used.
export async function signInWithMicrosoft(cfg: MicrosoftConfig): Promise<MicrosoftLoginResult> {
  if (!cfg.enabled || !cfg.clientId || !cfg.authority) throw new MicrosoftNotConfiguredError()
  const { nonce } = await api.post<{ nonce: string }>('/api/auth/microsoft/start')
  const { popupIdToken } = await import('./msal')
  const idToken = await popupIdToken(cfg, nonce)
  return api.post<MicrosoftLoginResult>('/api/auth/microsoft', { idToken })
}

export function useMicrosoftLogin() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: signInWithMicrosoft,
    onSuccess: (res) => {
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'config' })
      qc.setQueryData<Session>(sessionQueryKey, { user: res.user, access: res.access })
    },
  })
}
