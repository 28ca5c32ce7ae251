import { useEffect, useState } from 'react'
import { serverClock } from './clock'

// useServerNow re-renders every intervalMs with the server's current time.
export function useServerNow(intervalMs = 250, enabled = true): number {
  const [now, setNow] = useState(() => serverClock.now())
  useEffect(() => {
    if (!enabled) return
    setNow(serverClock.now())
    const t = setInterval(() => setNow(serverClock.now()), intervalMs)
    return () => clearInterval(t)
  }, [intervalMs, enabled])
  return now
}
