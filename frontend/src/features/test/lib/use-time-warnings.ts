import { useEffect, useRef, useState } from 'react'
import { crossedWarning } from './clock'

// useTimeWarnings returns the warning to announce ("Quedan 2 minutos.",
// "Quedan 30 segundos.") when the time left in a phase crosses 2:00 or 0:30.
// Each is said once, when it happens: opening the page already under 2:00,
// a pause or a new phase does not announce it.
export function useTimeWarnings(secondsLeft: number | null, limitSec: number, phaseKey: string | number, paused: boolean) {
  const [message, setMessage] = useState<{ text: string; n: number }>({ text: '', n: 0 })
  const prev = useRef<{ key: string | number; sec: number } | null>(null)
  useEffect(() => {
    if (secondsLeft === null || paused) {
      prev.current = null
      return
    }
    const p = prev.current
    if (p && p.key === phaseKey) {
      const w = crossedWarning(limitSec, p.sec, secondsLeft)
      if (w) setMessage((m) => ({ text: w.message, n: m.n + 1 }))
    }
    prev.current = { key: phaseKey, sec: secondsLeft }
  }, [secondsLeft, limitSec, phaseKey, paused])
  return message
}
