// The MSAL popup, in its own module so the bundler puts it (and MSAL) in a
// chunk loaded only when the Microsoft button is used.
import { PublicClientApplication, ProtocolMode } from '@azure/msal-browser'
import type { MicrosoftConfig } from '@/lib/config'

let pca: PublicClientApplication | null = null

async function client(cfg: MicrosoftConfig) {
  if (pca) return pca
  pca = new PublicClientApplication({
    auth: {
      clientId: cfg.clientId!,
      authority: cfg.authority!,
      knownAuthorities: cfg.knownAuthorities ?? [],
      redirectUri: `${window.location.origin}/auth-popup.html`,
    },
    cache: { cacheLocation: 'sessionStorage' },
    system: { protocolMode: cfg.protocolMode === 'OIDC' ? ProtocolMode.OIDC : ProtocolMode.AAD },
  })
  await pca.initialize()
  return pca
}

export async function popupIdToken(cfg: MicrosoftConfig, nonce: string): Promise<string> {
  const app = await client(cfg)
  const res = await app.loginPopup({ scopes: cfg.scopes, nonce, prompt: 'select_account' })
  return res.idToken
}
