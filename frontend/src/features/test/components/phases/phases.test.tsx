import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createRef } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { caseFixture } from '@/test/fixtures'
import { renderWithQuery } from '@/test/render'
import type { Attempt, Phase } from '@/types/api'
import { getUploadQueue } from '../../recording/uploader'
import { PhaseCard } from './PhaseCard'
import { QuestionPhase } from './QuestionPhase'
import { SelfAssessmentPhase } from './SelfAssessmentPhase'
import { SpokenPhase } from './SpokenPhase'

const phase = (over: Partial<Phase>): Phase => ({
  kind: 'presentation',
  index: 0,
  limitSec: 60,
  startedAt: new Date().toISOString(),
  endedAt: null,
  pausedSec: 0,
  pausedAt: null,
  skipped: false,
  recorded: true,
  deadline: null,
  usedSec: 0,
  ...over,
})

const attempt = (mode: Attempt['mode']) =>
  ({
    id: 'a1',
    mode,
    notes: '',
    case: caseFixture({ facts: 'Hechos del caso.', followUps: ['¿Qué norma?'], keyPoints: [], followUpKeyPoints: [] }),
    blueprint: { answerSec: 120 },
  }) as unknown as Attempt

const recorder = <p>grabadora</p>

function card(over: Partial<Parameters<typeof PhaseCard>[0]> = {}) {
  const props = {
    phase: phase({}),
    cur: 1,
    total: 6,
    instruction: 'Exponga el caso.',
    secondsLeft: 42,
    paused: false,
    training: true,
    advancing: false,
    toggling: false,
    onAdvance: vi.fn(),
    onTogglePause: vi.fn(),
    onSkip: vi.fn(),
    cardRef: createRef<HTMLElement>(),
    headingRef: createRef<HTMLHeadingElement>(),
    ...over,
  }
  render(<PhaseCard {...props} />)
  return props
}

describe('PhaseCard', () => {
  it('names the phase and its place, and in Entrenamiento offers pause and skip', async () => {
    const props = card()
    expect(screen.getByText('Fase 2 de 6')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: 'Exposición' })).toBeInTheDocument()
    expect(screen.getByRole('timer', { name: 'Tiempo restante' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Terminar exposición' }))
    await userEvent.click(screen.getByRole('button', { name: 'Pausar' }))
    await userEvent.click(screen.getByRole('button', { name: 'Saltar fase' }))
    expect(props.onAdvance).toHaveBeenCalledOnce()
    expect(props.onTogglePause).toHaveBeenCalledOnce()
    expect(props.onSkip).toHaveBeenCalledOnce()
  })

  it('in a Simulacro can only end the phase', () => {
    card({ training: false })
    expect(screen.getByRole('button', { name: 'Terminar exposición' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Pausar' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Saltar fase' })).toBeNull()
  })

  it('while moving on, says so and disables the buttons; paused, says how to go on', () => {
    card({ advancing: true, paused: true })
    expect(screen.getByRole('button', { name: 'Pasando a la siguiente fase…' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Reanudar' })).toBeDisabled()
    expect(screen.getByText(/Intento en pausa: el tiempo está detenido/)).toBeInTheDocument()
  })

  it('has no buttons in the self-assessment', () => {
    card({ phase: phase({ kind: 'self_assessment', limitSec: 0, recorded: false }) })
    expect(screen.queryByRole('button')).toBeNull()
  })
})

describe('SpokenPhase', () => {
  it('shows the structure guide in an Entrenamiento presentation only', () => {
    const { unmount } = render(<SpokenPhase a={attempt('entrenamiento')} kind="presentation" notes="" recorder={recorder} />)
    expect(screen.getByRole('complementary', { name: 'Guía de estructura' })).toBeInTheDocument()
    expect(screen.getByText('grabadora')).toBeInTheDocument()
    unmount()
    render(<SpokenPhase a={attempt('entrenamiento')} kind="closing" notes="mis notas" recorder={recorder} />)
    expect(screen.queryByRole('complementary', { name: 'Guía de estructura' })).toBeNull()
    expect(screen.getByText('mis notas')).toBeInTheDocument()
  })
})

describe('QuestionPhase', () => {
  it('in the think time shows the question and the answer time, without the recorder', () => {
    render(<QuestionPhase a={attempt('simulacro')} kind="think" number={1} question="¿Qué norma?" notes="" recorder={recorder} />)
    expect(screen.getByRole('heading', { name: 'Pregunta 1 del tribunal' })).toBeInTheDocument()
    expect(screen.getByText('¿Qué norma?')).toBeInTheDocument()
    expect(screen.getByText(/Luego tendrá 2 minutos para responder; la respuesta se grabará\./)).toBeInTheDocument()
    expect(screen.queryByText('grabadora')).toBeNull()
    expect(screen.getByText('No escribió notas.')).toBeInTheDocument()
  })

  it('in the answer shows the recorder', () => {
    render(<QuestionPhase a={attempt('simulacro')} kind="answer" number={1} question="¿Qué norma?" notes="" recorder={recorder} />)
    expect(screen.getByText('grabadora')).toBeInTheDocument()
    expect(screen.queryByText(/Luego tendrá/)).toBeNull()
  })
})

describe('SelfAssessmentPhase', () => {
  it('sends only when every criterion has a level', async () => {
    const a = {
      ...attempt('entrenamiento'),
      rubric: {
        degreeId: 'derecho',
        version: 1,
        passScore: 7,
        levels: [1, 2, 3, 4].map((level) => ({ level, name: `Nivel ${level}` })),
        criteria: [
          { id: 'C1', group: 'contenido', name: 'Problema jurídico', weight: 10, description: 'd', descriptors: ['a', 'b', 'c', 'd'] },
        ],
      },
    } as Attempt
    const queue = getUploadQueue('a1')
    const upload = { pendingChunks: 0, pendingRecordings: 0 } as Parameters<typeof SelfAssessmentPhase>[0]['upload']
    renderWithQuery(<SelfAssessmentPhase a={a} queue={queue} upload={upload} />)
    expect(screen.getByRole('heading', { name: 'Califique su desempeño' })).toBeInTheDocument()
    const send = screen.getByRole('button', { name: 'Enviar autoevaluación' })
    expect(send).toBeDisabled()
    await userEvent.click(screen.getAllByRole('radio')[3])
    expect(send).toBeEnabled()
  })
})
