import { formatClock, warningLevel, type WarningLevel } from '../lib/clock'

const tone: Record<WarningLevel, string> = {
  none: 'bg-white text-brand-900 ring-slate-300',
  soon: 'bg-gold-300/40 text-slate-900 ring-gold-500',
  urgent: 'bg-red-50 text-red-900 ring-red-600',
}

const note: Record<WarningLevel, string> = {
  none: '',
  soon: 'Quedan menos de 2 minutos',
  urgent: 'Quedan menos de 30 segundos',
}

// Countdown is the visible clock of a timed phase. It is not a live region
// (a screen reader would read it every second); the page announces the
// warnings at 2:00 and 0:30 separately.
export function Countdown({ remainingMs, limitSec, paused }: { remainingMs: number; limitSec: number; paused: boolean }) {
  const level = paused ? 'none' : warningLevel(limitSec, remainingMs / 1000)
  return (
    <div className={`inline-flex flex-col items-center rounded-2xl px-5 py-3 ring-2 ${tone[level]}`} data-warning={level}>
      <span className="text-xs font-semibold tracking-wide uppercase">{paused ? 'En pausa' : 'Tiempo restante'}</span>
      <span role="timer" aria-label="Tiempo restante" className="text-4xl font-bold tabular-nums sm:text-5xl">
        {formatClock(remainingMs)}
      </span>
      {level !== 'none' && (
        <span className="mt-1 flex items-center gap-1 text-sm font-semibold">
          <span aria-hidden="true">⚠</span>
          {note[level]}
        </span>
      )}
    </div>
  )
}
