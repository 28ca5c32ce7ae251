import { useEffect, useState, type RefObject } from 'react'
import { formatClock, warningLevel } from '../lib/clock'

const tone = {
  none: 'bg-brand-900 text-white',
  soon: 'bg-gold-400 text-brand-900',
  urgent: 'bg-red-700 text-white',
} as const

// StickyPhaseBar keeps the phase, the time left and the recording state in
// sight when the phase card has scrolled away (reading a long case on a
// phone). It repeats what the card says, so it is hidden from screen readers.
export function StickyPhaseBar({
  target,
  label,
  secondsLeft,
  limitSec,
  paused,
  recording,
}: {
  target: RefObject<HTMLElement | null>
  label: string
  secondsLeft: number | null
  limitSec: number
  paused: boolean
  recording: boolean
}) {
  const [away, setAway] = useState(false)
  useEffect(() => {
    const el = target.current
    if (!el || typeof IntersectionObserver === 'undefined') return
    const io = new IntersectionObserver(([e]) => setAway(!e.isIntersecting), { threshold: 0 })
    io.observe(el)
    return () => io.disconnect()
  }, [target])
  const shown = away && (secondsLeft !== null || recording)
  // Keyboard focus must not end up hidden under the bar (WCAG 2.4.11).
  useEffect(() => {
    if (!shown) return
    const root = document.documentElement
    const before = root.style.scrollPaddingBottom
    root.style.scrollPaddingBottom = '4.5rem'
    return () => {
      root.style.scrollPaddingBottom = before
    }
  }, [shown])
  if (!shown) return null
  const level = paused || secondsLeft === null ? 'none' : warningLevel(limitSec, secondsLeft)
  return (
    <div aria-hidden="true" className={`fixed inset-x-0 bottom-0 z-30 shadow-[0_-2px_8px_rgba(0,0,0,0.15)] ${tone[level]}`}>
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-2 sm:px-6">
        <span className="flex min-w-0 items-center gap-2 font-semibold">
          {recording && <span className="size-2.5 shrink-0 rounded-full bg-red-500 ring-2 ring-white" />}
          <span className="truncate">{label}</span>
        </span>
        {secondsLeft !== null && (
          <span className="text-xl font-bold tabular-nums">
            {paused ? 'En pausa · ' : ''}
            {formatClock(secondsLeft * 1000)}
          </span>
        )}
      </div>
    </div>
  )
}
