import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { isUserData } from '@/lib/config'
import type { MicrosoftConfig, MicrosoftLoginRequest, MicrosoftLoginResult, MicrosoftNonce, Session } from '@/types/api'
import { sessionQueryKey } from './get-session'
import { clearMicrosoftCache } from './msal-cache'

export type { MicrosoftLoginResult }

export class MicrosoftNotConfiguredError extends Error {}

export type MicrosoftLoginInput = {
  config: MicrosoftConfig
  /** Called with true when the popup is about to open, false once it answered. */
  onPopup?: (open: boolean) => void
}

// signInWithMicrosoft runs the university-account popup and hands the ID
// token to the server, which verifies it. MSAL (about 70 kB) is loaded only
// here, when the button is used, while the server issues the nonce.
export async function signInWithMicrosoft({ config: cfg, onPopup }: MicrosoftLoginInput): Promise<MicrosoftLoginResult> {
  if (!cfg.enabled || !cfg.clientId || !cfg.authority) throw new MicrosoftNotConfiguredError()
  const [{ nonce }, { popupIdToken }] = await Promise.all([api.post<MicrosoftNonce>('/api/auth/microsoft/start'), import('./msal')])
  onPopup?.(true)
  let idToken: string
  try {
    idToken = await popupIdToken(cfg, nonce)
  } finally {
    onPopup?.(false)
  }
  try {
    return await api.post<MicrosoftLoginResult>('/api/auth/microsoft', { idToken } satisfies MicrosoftLoginRequest)
  } finally {
    // Once the server has answered, the browser keeps nothing of the
    // sign-in: MSAL's cache holds the ID token, the account and a Graph
    // access token (the mail.send scope), none of which the app uses.
    await clearMicrosoftCache()
  }
}

export function useMicrosoftLogin() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: signInWithMicrosoft,
    onSuccess: (res) => {
      qc.removeQueries({ predicate: isUserData })
      qc.setQueryData<Session>(sessionQueryKey, { user: res.user, access: res.access })
    },
  })
}
