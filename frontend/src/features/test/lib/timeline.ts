import type { Blueprint, Phase } from '@/types/api'
import { spokenDuration } from './clock'
import type { RecordingStateKey } from './recording-state'

// The phase timeline: an attempt's phases grouped into the steps a student
// recognises (a tribunal question is one step: think, then answer).

export type StepState = 'done' | 'current' | 'upcoming' | 'skipped'

export type Step = {
  key: string
  label: string
  first: number // first phase index of the step
  last: number // last phase index of the step
  state: StepState
}

function stepLabel(p: Pick<Phase, 'kind' | 'index'>): string {
  switch (p.kind) {
    case 'preparation':
      return 'Preparación'
    case 'presentation':
      return 'Exposición'
    case 'think':
    case 'answer':
      return `Pregunta ${p.index}`
    case 'closing':
      return 'Cierre'
    case 'self_assessment':
      return 'Autoevaluación'
  }
}

// timelineSteps groups phases into steps and says where the attempt is.
// current is the attempt's current phase (phases.length when finished).
export function timelineSteps(phases: Pick<Phase, 'kind' | 'index' | 'skipped'>[], current: number): Step[] {
  const steps: Step[] = []
  phases.forEach((p, i) => {
    const label = stepLabel(p)
    const last = steps[steps.length - 1]
    if (last && last.label === label && (p.kind === 'answer' || p.kind === 'think')) last.last = i
    else steps.push({ key: `${p.kind}-${p.index}-${i}`, label, first: i, last: i, state: 'upcoming' })
  })
  for (const s of steps) {
    if (current > s.last) {
      const all = phases.slice(s.first, s.last + 1)
      s.state = all.every((p) => p.skipped) ? 'skipped' : 'done'
    } else if (current >= s.first) {
      s.state = 'current'
    }
  }
  return steps
}

// phaseInstruction tells the student what to do in a phase. For a recorded
// phase, recording says what the recorder is doing right now, so the text
// never claims a recording that is not happening; without it (the spoken
// announcement when a phase begins) the text says the phase is recorded.
export function phaseInstruction(p: Pick<Phase, 'kind' | 'index' | 'limitSec'>, recording?: RecordingStateKey): string {
  const t = spokenDuration(p.limitSec)
  const rec = recordedNow(recording)
  switch (p.kind) {
    case 'preparation':
      return `Lea el caso y prepare su exposición. Tiene ${t}; sus notas se guardan solas.`
    case 'presentation':
      return `Exponga el caso ante el tribunal. ${rec}; tiene ${t}.`
    case 'think':
      return `Escuche la pregunta ${p.index} del tribunal y piense su respuesta (${t}).`
    case 'answer':
      return `Responda la pregunta ${p.index} del tribunal. ${rec}; tiene ${t}.`
    case 'closing':
      return `Haga su alegato de cierre. ${rec}; tiene ${t}.`
    case 'self_assessment':
      return 'Califique su desempeño con la rúbrica. Después verá los puntos clave del caso.'
  }
}

function recordedNow(recording: RecordingStateKey | undefined): string {
  switch (recording) {
    case undefined:
      return 'Esta fase se graba'
    case 'on':
      return 'Se está grabando'
    case 'paused':
      return 'La grabación está en pausa'
    case 'starting':
      return 'La grabación está por comenzar'
    case 'off':
      return 'La grabación no está activa'
  }
}

// finishLabel names the button that ends a recorded or timed phase early.
export function finishLabel(p: Pick<Phase, 'kind'>): string {
  switch (p.kind) {
    case 'preparation':
      return 'Terminar preparación'
    case 'presentation':
      return 'Terminar exposición'
    case 'think':
      return 'Responder ahora'
    case 'answer':
      return 'Terminar respuesta'
    case 'closing':
      return 'Terminar cierre'
    default:
      return 'Continuar'
  }
}

export type BlueprintRow = { label: string; seconds: number; note?: string }

// blueprintRows lists the timings of a blueprint for the first screen.
export function blueprintRows(b: Blueprint): BlueprintRow[] {
  return [
    { label: 'Preparación', seconds: b.preparationSec },
    { label: 'Exposición', seconds: b.presentationSec },
    {
      label: `Preguntas del tribunal (${b.questions})`,
      seconds: b.questions * (b.thinkSec + b.answerSec),
      note: `${spokenDuration(b.thinkSec)} para pensar y ${spokenDuration(b.answerSec)} para responder cada una`,
    },
    { label: 'Alegato de cierre', seconds: b.closingSec },
  ]
}
