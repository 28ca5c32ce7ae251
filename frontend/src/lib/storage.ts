// Browser storage rules (docs/product.md): sign-out and an unauthenticated
// visit to a guarded route clear local storage; the place the guest wanted is
// kept (per tab) so that sign-in can return there.

const REDIRECT_KEY = 'simulador.redirect'

export function clearLocalStorage() {
  try {
    localStorage.clear()
  } catch {
    // storage can be unavailable (private mode); nothing to clear then
  }
}

export function saveRedirect(path: string) {
  try {
    sessionStorage.setItem(REDIRECT_KEY, path)
  } catch {
    // ignore: the user lands on /auth/carreras instead
  }
}

// consumeRedirect returns the saved location once, or null.
export function consumeRedirect(): string | null {
  try {
    const v = sessionStorage.getItem(REDIRECT_KEY)
    sessionStorage.removeItem(REDIRECT_KEY)
    return v && v.startsWith('/') && !v.startsWith('//') ? v : null
  } catch {
    return null
  }
}
