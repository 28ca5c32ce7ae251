import { useEffect, useState, type RefObject } from 'react'
import { formatClock, warningLevel } from '../lib/clock'
import type { UploadSummary } from '../lib/upload-text'

const tone = {
  none: 'bg-brand-900 text-white',
  soon: 'bg-gold-400 text-brand-900',
  urgent: 'bg-red-700 text-white',
} as const

// StickyPhaseBar (#barra-estado) keeps the phase, the time left and the
// recording state in sight. On a phone the phase card, the case and the
// recorder card do not fit one screen, so the bar is always there; on a
// wider screen it appears once the phase card has scrolled away. It repeats
// what the cards say (the same words), so it is hidden from screen readers.
export function StickyPhaseBar({
  target,
  label,
  secondsLeft,
  limitSec,
  paused,
  recording,
  upload,
}: {
  target: RefObject<HTMLElement | null>
  label: string
  secondsLeft: number | null
  limitSec: number
  paused: boolean
  // The recorder card's state text ("Grabando", "Sin grabar"…) and whether
  // it shows a problem; null in a phase that is not recorded.
  recording: { key: string; text: string; problem: boolean } | null
  // Where the recordings are; null while nothing was recorded yet.
  upload: UploadSummary | null
}) {
  const [away, setAway] = useState(false)
  useEffect(() => {
    const el = target.current
    if (!el || typeof IntersectionObserver === 'undefined') return
    const io = new IntersectionObserver(([e]) => setAway(!e.isIntersecting), { threshold: 0 })
    io.observe(el)
    return () => io.disconnect()
  }, [target])
  // Keyboard focus must not end up hidden under the bar (WCAG 2.4.11).
  useEffect(() => {
    const root = document.documentElement
    const before = root.style.scrollPaddingBottom
    root.style.scrollPaddingBottom = '5.5rem'
    return () => {
      root.style.scrollPaddingBottom = before
    }
  }, [])
  const level = paused || secondsLeft === null ? 'none' : warningLevel(limitSec, secondsLeft)
  const state = recording
    ? recording.text + (recording.problem ? ' · Hay un problema con la grabación: vea el aviso' : '')
    : 'Esta fase no se graba'
  return (
    <>
      {/* Room for the bar at the end of the page, so it never covers the last
          controls. Always there, whether the bar shows or not: made only
          when the bar appears (on a wide screen, as the phase card scrolls
          away) it pushed "Abandonar intento" 64 px down just as the student
          scrolled to it, and a click aimed at it landed above it. */}
      <div aria-hidden="true" className="h-16" />
      <div
        id="barra-estado"
        aria-hidden="true"
        data-recording={recording?.key ?? 'none'}
        className={`fixed inset-x-0 bottom-0 z-30 shadow-[0_-2px_8px_rgba(0,0,0,0.15)] ${tone[level]} ${away ? '' : 'md:hidden'}`}
      >
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-1.5 sm:px-6">
          <div className="min-w-0 text-sm leading-snug">
            <p className="flex min-w-0 items-center gap-2 font-semibold">
              {recording?.key === 'on' && <span className="size-2.5 shrink-0 rounded-full bg-red-500 ring-2 ring-white" />}
              <span className="truncate">{label}</span>
              <span className="truncate font-normal" data-testid="barra-grabacion">
                · {state}
              </span>
            </p>
            {upload && (
              <p className="line-clamp-2" data-testid="barra-subida" data-upload={upload.tone}>
                {upload.tone === 'ok' ? '✓ ' : ''}
                {upload.text}
              </p>
            )}
          </div>
          {secondsLeft !== null && (
            <span className="shrink-0 text-xl font-bold tabular-nums" data-testid="barra-tiempo">
              {paused ? 'En pausa · ' : ''}
              {formatClock(secondsLeft * 1000)}
            </span>
          )}
        </div>
      </div>
    </>
  )
}
