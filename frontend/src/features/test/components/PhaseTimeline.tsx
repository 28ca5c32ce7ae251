import type { Phase } from '@/types/api'
import { timelineSteps, type StepState } from '../lib/timeline'

const stateText: Record<StepState, string> = {
  done: 'completada',
  current: 'en curso',
  upcoming: 'pendiente',
  skipped: 'omitida',
}

const dot: Record<StepState, string> = {
  done: 'bg-brand-700 text-white border-brand-700',
  current: 'bg-gold-400 text-brand-900 border-gold-500',
  upcoming: 'bg-white text-slate-700 border-slate-400',
  skipped: 'bg-slate-200 text-slate-700 border-slate-400',
}

// PhaseTimeline shows the steps of the attempt and where the student is.
export function PhaseTimeline({ phases, current }: { phases: Phase[]; current: number }) {
  const steps = timelineSteps(phases, current)
  return (
    <nav aria-label="Fases del intento">
      <ol className="flex flex-wrap items-center gap-x-1 gap-y-2 sm:gap-x-2">
        {steps.map((s, i) => (
          <li key={s.key} aria-current={s.state === 'current' ? 'step' : undefined} className="flex items-center gap-1 sm:gap-2">
            {i > 0 && <span aria-hidden="true" className="h-px w-3 bg-slate-300 sm:w-6" />}
            <span
              className={`flex items-center gap-1.5 rounded-full border px-2.5 py-1 text-sm ${
                s.state === 'current' ? 'border-gold-500 bg-gold-300/30 font-semibold text-brand-900' : 'border-transparent text-slate-700'
              }`}
            >
              <span
                aria-hidden="true"
                className={`flex size-5 items-center justify-center rounded-full border text-xs font-bold ${dot[s.state]}`}
              >
                {s.state === 'done' ? '✓' : s.state === 'skipped' ? '–' : i + 1}
              </span>
              {s.label}
              <span className="sr-only"> ({stateText[s.state]})</span>
            </span>
          </li>
        ))}
      </ol>
    </nav>
  )
}
