import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Phase, Evidence, PhaseEvidence, Report } from '@/types/api'
import { EvidencePanel } from './EvidencePanel'

const phase = (kind: Phase['kind'], index = 0): Phase => ({
  kind,
  index,
  limitSec: 300,
  startedAt: null,
  endedAt: null,
  pausedSec: 0,
  pausedAt: null,
  skipped: false,
  recorded: kind !== 'preparation',
  deadline: null,
  usedSec: 0,
})
const phases = [phase('preparation'), phase('presentation'), phase('closing')]

const phaseEvidence = (over: Partial<PhaseEvidence>): PhaseEvidence => ({
  phase: 1,
  kind: 'presentation',
  index: 0,
  usedSec: 0,
  limitSec: 300,
  spokenMs: 0,
  hasTranscript: false,
  words: 0,
  wordsPerMinute: 0,
  paceBand: '',
  fillers: {},
  fillersPerMinute: 0,
  longPauses: [],
  ...over,
})

const report = (over: Partial<Report> = {}): Report => ({
  words: 260,
  wordsPerMinute: 104,
  paceBand: 'adecuado',
  citations: [],
  unattributed: [],
  greeting: true,
  closing: true,
  structureMarkers: ['introducción', 'conclusión'],
  fillers: {},
  fillersPerMinute: 0,
  keyPointsCovered: [],
  bases: { matched: [], missing: [], unexpected: [], probable: [] },
  ...over,
})

// Two phases with a transcript, 90 s + 60 s = 2.5 minutes spoken.
const withTranscript = (over: Partial<Report> = {}): Evidence => ({
  hasTranscript: true,
  greeting: true,
  closing: false,
  overall: report(over),
  phases: [
    phaseEvidence({ phase: 1, hasTranscript: true, spokenMs: 90_000, longPauses: [{ recordingId: 'r', startMs: 1000, endMs: 5000 }] }),
    phaseEvidence({ phase: 2, kind: 'closing', hasTranscript: true, spokenMs: 60_000 }),
  ],
  keyPoints: [
    { text: 'Vulneración del debido proceso', covered: true },
    { text: 'Reparación integral', covered: false },
  ],
})

const item = (title: string) => screen.getByRole('heading', { name: title }).parentElement!

describe('EvidencePanel', () => {
  it('is marked as evidence, not a grade, and explains every measure in one line', () => {
    render(<EvidencePanel evidence={withTranscript()} phases={phases} />)
    const panel = screen.getByRole('region', { name: 'Evidencia automática' })
    expect(panel).toHaveTextContent('no una calificación')
    const titles = within(panel).getAllByRole('heading', { level: 3 })
    expect(titles.map((h) => h.textContent)).toEqual([
      'Bases legales',
      'Puntos clave del caso',
      'Protocolo',
      'Estructura',
      'Ritmo',
      'Muletillas',
      'Pausas largas',
    ])
    for (const h of titles) {
      const explain = h.nextElementSibling
      expect(explain?.tagName).toBe('P')
      expect(explain?.textContent?.trim().length).toBeGreaterThan(20)
    }
    expect(item('Protocolo')).toHaveTextContent('Saludó al tribunal')
    expect(item('Protocolo')).toHaveTextContent('No se detectó un cierre formal')
    expect(item('Pausas largas')).toHaveTextContent('Exposición: 1')
  })

  it('shows filler words per minute by kind over the spoken time', () => {
    render(<EvidencePanel evidence={withTranscript({ fillers: { eh: 5, bueno: 1 }, fillersPerMinute: 2.4 })} phases={phases} />)
    const fillers = item('Muletillas')
    expect(fillers).toHaveTextContent('2,4 por minuto en total')
    const rows = within(fillers)
      .getAllByRole('listitem')
      .map((li) => li.textContent)
    expect(rows).toEqual(['«eh»: 2,0 por minuto (5 veces)', '«bueno»: 0,4 por minuto (1 vez)'])
  })

  it('shows counts alone when the spoken time is unknown', () => {
    const ev = withTranscript({ fillers: { pues: 2 } })
    ev.phases = ev.phases.map((p) => ({ ...p, spokenMs: 0 }))
    render(<EvidencePanel evidence={ev} phases={phases} />)
    expect(within(item('Muletillas')).getByRole('listitem')).toHaveTextContent('«pues»: 2 veces')
    expect(item('Muletillas')).not.toHaveTextContent('por minuto en total')
  })

  it('says when no filler words were found', () => {
    render(<EvidencePanel evidence={withTranscript()} phases={phases} />)
    expect(item('Muletillas')).toHaveTextContent('No se detectaron muletillas.')
  })

  it('compares the legal bases and shows probable ones apart, as uncertain', () => {
    const ev = withTranscript({
      unattributed: [88],
      bases: {
        matched: [{ norm: 'Constitución', article: 76 }],
        missing: [
          { norm: 'LOGJCC', article: 39 },
          { norm: 'Constitución', article: 88 },
        ],
        unexpected: [{ norm: 'COIP', article: 33 }],
        probable: [{ norm: 'Constitución', article: 88 }],
      },
    })
    render(<EvidencePanel evidence={ev} phases={phases} />)
    const bases = item('Bases legales')
    expect(bases).toHaveTextContent('Citadas y esperadas (1): art. 76 de la Constitución')
    expect(bases).toHaveTextContent('Esperadas no citadas (2): art. 39 del LOGJCC; art. 88 de la Constitución')
    expect(bases).toHaveTextContent('Citadas no esperadas (1): art. 33 del COIP')
    const probable = within(bases)
      .getByText(/Posiblemente citadas, sin certeza/)
      .closest('li')!
    expect(probable).toHaveTextContent('(1): art. 88 de la Constitución')
    expect(probable).toHaveTextContent('Dijo el número de estos artículos sin nombrar su norma')
    expect(bases).toHaveTextContent('Artículos sin norma: 88')
  })

  it('hides the probable line when there is none', () => {
    render(<EvidencePanel evidence={withTranscript()} phases={phases} />)
    expect(screen.queryByText(/Posiblemente citadas/)).toBeNull()
  })

  it('without a transcript shows only the measures that do not need one', () => {
    const ev: Evidence = { ...withTranscript(), hasTranscript: false, phases: [phaseEvidence({ phase: 1 })] }
    render(<EvidencePanel evidence={ev} phases={phases} />)
    expect(screen.getByRole('note')).toHaveTextContent('Esta práctica no tiene transcripción')
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Pausas largas'])
    expect(item('Pausas largas')).toHaveTextContent('No hubo pausas largas.')
  })
})
