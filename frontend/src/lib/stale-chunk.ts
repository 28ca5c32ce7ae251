// After a deploy, a tab opened before it asks for lazy chunks whose names
// (content hashes) no longer exist: the dynamic import fails. Reloading
// fetches the new index.html and its chunks. It is done once per tab
// session (sessionStorage), so a chunk that fails for another reason (the
// network) cannot make the page reload in a loop; after that the error
// boundary shows its message and the Recargar button.

const KEY = 'simulador.reloadedForNewVersion'

// Leaving the page (a link to another site, an address typed, a driver's
// navigation) cancels the lazy chunks still loading, and the browser
// reports each as a failed import of the page being left. That is no new
// version, and a reload would replace the navigation the person asked for.
// A leave that was called off (the person stayed) stops counting after a
// while, so a real new version still reloads the page later.
const LEAVE_COUNTS_MS = 10_000
let leftAt = 0
if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => {
    leftAt = Date.now()
  })
}

// leavingPage reports whether the page has started to be left.
export function leavingPage(now = Date.now()): boolean {
  return leftAt > 0 && now - leftAt < LEAVE_COUNTS_MS
}

// isStaleChunkError: the browser could not load a module of the app (each
// engine words it differently; Vite's own preload error too).
export function isStaleChunkError(err: unknown): boolean {
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : ''
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
    message,
  )
}

// reloadOnceForNewVersion reloads the page unless it already did so in this
// tab or the page is being left; it reports whether it reloaded.
export function reloadOnceForNewVersion(reload: () => void = () => window.location.reload()): boolean {
  if (leavingPage()) return false
  try {
    if (sessionStorage.getItem(KEY)) return false
    sessionStorage.setItem(KEY, String(Date.now()))
  } catch {
    return false // without storage the guard cannot hold: never reload on our own
  }
  reload()
  return true
}

// forgetReloadForNewVersion lets a later deploy reload the tab once more
// (the user asked for a reload themselves).
export function forgetReloadForNewVersion() {
  try {
    sessionStorage.removeItem(KEY)
  } catch {
    // nothing kept, nothing to forget
  }
}
