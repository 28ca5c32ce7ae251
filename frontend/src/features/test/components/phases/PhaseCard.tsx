import type { RefObject } from 'react'
import { Button } from '@/components/ui/Button'
import { Notice } from '@/components/ui/Notice'
import { phaseName } from '@/lib/attempts'
import type { Phase } from '@/types/api'
import { finishLabel } from '../../lib/timeline'
import { Countdown } from '../Countdown'

type Props = {
  phase: Phase
  cur: number
  total: number
  instruction: string
  secondsLeft: number | null
  paused: boolean
  training: boolean
  advancing: boolean
  toggling: boolean
  onAdvance: () => void
  onTogglePause: () => void
  onSkip: () => void
  cardRef: RefObject<HTMLElement | null>
  headingRef: RefObject<HTMLHeadingElement | null>
}

// PhaseCard heads the phase under way: which it is, what to do, the time
// left, and the buttons that end it, pause it (Entrenamiento) or skip it.
export function PhaseCard({
  phase,
  cur,
  total,
  instruction,
  secondsLeft,
  paused,
  training,
  advancing,
  toggling,
  onAdvance,
  onTogglePause,
  onSkip,
  cardRef,
  headingRef,
}: Props) {
  const timed = phase.limitSec > 0
  return (
    <section ref={cardRef} aria-labelledby="fase-actual" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-2xl">
          <p className="text-sm font-semibold text-brand-700">
            Fase {cur + 1} de {total}
          </p>
          <h2 id="fase-actual" ref={headingRef} tabIndex={-1} className="text-2xl font-bold text-slate-900 focus:outline-none">
            {phaseName(phase)}
          </h2>
          <p className="mt-1 text-slate-700">{instruction}</p>
        </div>
        {timed && secondsLeft !== null && <Countdown remainingMs={secondsLeft * 1000} limitSec={phase.limitSec} paused={paused} />}
      </div>
      {paused && (
        <div className="mt-4">
          <Notice tone="info">Intento en pausa: el tiempo está detenido. Pulse «Reanudar» para continuar.</Notice>
        </div>
      )}
      {phase.kind !== 'self_assessment' && (
        <div className="mt-5 flex flex-wrap gap-3">
          <Button onClick={onAdvance} disabled={advancing}>
            {advancing ? 'Pasando a la siguiente fase…' : finishLabel(phase)}
          </Button>
          {training && timed && (
            <Button variant="outline" onClick={onTogglePause} disabled={toggling || advancing}>
              {paused ? 'Reanudar' : 'Pausar'}
            </Button>
          )}
          {training && (
            <Button variant="outline" onClick={onSkip} disabled={advancing}>
              Saltar fase
            </Button>
          )}
        </div>
      )}
    </section>
  )
}
