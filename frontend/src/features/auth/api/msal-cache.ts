// What the browser must forget of the Microsoft sign-in, as soon as the
// server has answered it and again at sign-out. MSAL keeps its cache (the
// ID token, the account and, with the mail.send scope, a Graph access
// token) in this tab's sessionStorage under "msal." keys; clearing local
// storage does not reach it. This module does not import MSAL, so signing
// out never loads it: when the popup ran in this page, msal.ts registers a
// clear function here.

const MSAL_PREFIX = 'msal.'

let clearLoaded: (() => Promise<void>) | null = null

// registerMsalClear is called by msal.ts once its client exists.
export function registerMsalClear(clear: () => Promise<void>) {
  clearLoaded = clear
}

// clearMicrosoftCache lets a loaded MSAL client clear its cache its own way,
// then removes whatever msal.* keys remain (e.g. from before a reload).
export async function clearMicrosoftCache() {
  const clear = clearLoaded
  clearLoaded = null
  if (clear) {
    try {
      await clear()
    } catch (err) {
      // The keys below are removed anyway.
      console.warn('No se pudo limpiar la caché de Microsoft', err)
    }
  }
  try {
    for (const key of Object.keys(sessionStorage)) {
      if (key.startsWith(MSAL_PREFIX)) sessionStorage.removeItem(key)
    }
  } catch {
    // storage can be unavailable (private mode); nothing was kept then
  }
}
