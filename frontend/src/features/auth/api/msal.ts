// The MSAL popup, in its own module so the bundler puts it (and MSAL) in a
// chunk loaded only when the Microsoft button is used.
import { EventType, PublicClientApplication, ProtocolMode, type PopupEvent } from '@azure/msal-browser'
import type { MicrosoftConfig } from '@/lib/config'
import { registerMsalClear } from './msal-cache'

let pca: PublicClientApplication | null = null
// The window of the latest sign-in, while this page can still reach it.
let lastPopup: Window | null = null

async function client(cfg: MicrosoftConfig) {
  if (pca) return pca
  pca = new PublicClientApplication({
    auth: {
      clientId: cfg.clientId!,
      authority: cfg.authority!,
      knownAuthorities: cfg.knownAuthorities ?? [],
      // /auth-popup.html only runs MSAL's redirect bridge, which hands the
      // response to this page over a BroadcastChannel.
      redirectUri: `${window.location.origin}/auth-popup.html`,
    },
    cache: { cacheLocation: 'sessionStorage' },
    system: {
      protocolMode: cfg.protocolMode === 'OIDC' ? ProtocolMode.OIDC : ProtocolMode.AAD,
      // MSAL gives up on the popup after this long (default 60 s, short for
      // a password plus an MFA approval). Waiting longer costs nothing: a
      // new press restarts the sign-in anyway (see popupIdToken).
      popupBridgeTimeout: 5 * 60_000,
    },
  })
  const app = pca
  await app.initialize()
  app.addEventCallback((msg) => {
    if (msg.eventType === EventType.POPUP_OPENED) lastPopup = (msg.payload as PopupEvent).popupWindow
  })
  // Sign-out clears this client's cache and drops it, so the next sign-in
  // starts from an empty cache (see msal-cache.ts).
  registerMsalClear(async () => {
    if (pca === app) pca = null
    lastPopup = null
    await app.clearCache()
  })
  return app
}

// popupIdToken runs the sign-in popup and returns the ID token, which carries
// nonce. MSAL 5 cannot tell that the user closed the popup (it waits for the
// redirect bridge until its 60 s timeout), so every call starts afresh: it
// closes the previous popup if it is still reachable and overrides MSAL's
// interaction in progress, whose pending promise then rejects.
export async function popupIdToken(cfg: MicrosoftConfig, nonce: string): Promise<string> {
  const app = await client(cfg)
  if (lastPopup && !lastPopup.closed) lastPopup.close()
  lastPopup = null
  const res = await app.loginPopup({ scopes: cfg.scopes, nonce, prompt: 'select_account', overrideInteractionInProgress: true })
  return res.idToken
}
