import { describe, expect, it } from 'vitest'
import type { Blueprint, Phase } from '@/types/api'
import { blueprintRows, phaseInstruction, timelineSteps } from './timeline'

const phase = (kind: Phase['kind'], index = 0, skipped = false) => ({ kind, index, skipped })
const phases = [
  phase('preparation'),
  phase('presentation'),
  phase('think', 1),
  phase('answer', 1),
  phase('think', 2),
  phase('answer', 2),
  phase('closing'),
  phase('self_assessment'),
]

describe('timelineSteps', () => {
  it('groups each tribunal question into one step', () => {
    const steps = timelineSteps(phases, 0)
    expect(steps.map((s) => s.label)).toEqual(['Preparación', 'Exposición', 'Pregunta 1', 'Pregunta 2', 'Cierre', 'Autoevaluación'])
    expect(steps[2]).toMatchObject({ first: 2, last: 3 })
    expect(steps.map((s) => s.state)).toEqual(['current', 'upcoming', 'upcoming', 'upcoming', 'upcoming', 'upcoming'])
  })

  it('marks done, current and skipped steps', () => {
    const withSkip = phases.map((p, i) => (i === 0 ? { ...p, skipped: true } : p))
    expect(timelineSteps(withSkip, 3).map((s) => s.state)).toEqual(['skipped', 'done', 'current', 'upcoming', 'upcoming', 'upcoming'])
    expect(timelineSteps(phases, phases.length).every((s) => s.state === 'done')).toBe(true)
  })
})

describe('phaseInstruction', () => {
  it('says a recorded phase is being recorded only while the recorder is', () => {
    const presentation = { kind: 'presentation' as const, index: 0, limitSec: 600 }
    expect(phaseInstruction(presentation, 'on')).toMatch(/Se está grabando; tiene 10 minutos\./)
    expect(phaseInstruction(presentation, 'off')).toMatch(/La grabación no está activa; tiene/)
    expect(phaseInstruction(presentation, 'off')).not.toMatch(/Se está grabando/)
    expect(phaseInstruction(presentation, 'paused')).toMatch(/en pausa/)
    expect(phaseInstruction(presentation)).toMatch(/Esta fase se graba/)
  })
})

describe('blueprint timings', () => {
  const bp: Blueprint = {
    degreeId: 'derecho',
    preparationSec: 1200,
    presentationSec: 600,
    questions: 3,
    thinkSec: 20,
    answerSec: 120,
    closingSec: 60,
    defaultMode: 'entrenamiento',
    difficultyMix: { basico: 25, intermedio: 50, avanzado: 25 },
  }
  it('lists the phases and their lengths', () => {
    const rows = blueprintRows(bp)
    expect(rows.map((r) => r.seconds)).toEqual([1200, 600, 420, 60])
    expect(rows[2].note).toBe('20 segundos para pensar y 2 minutos para responder cada una')
  })
})
