// How many requests are waiting to be sent again because the server said it
// was busy (see api-client). The layout shows a calm notice meanwhile.
let waiting = 0
const listeners = new Set<() => void>()

function notify() {
  for (const l of listeners) l()
}

// beginBusyWait counts one request waiting; call the returned function once
// it is sent again for the last time (or given up).
export function beginBusyWait(): () => void {
  waiting++
  notify()
  let ended = false
  return () => {
    if (ended) return
    ended = true
    waiting--
    notify()
  }
}

export const serverBusyWaiting = () => waiting

export function subscribeServerBusy(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
