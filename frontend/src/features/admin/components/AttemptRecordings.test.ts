import { describe, expect, it } from 'vitest'
import type { Phase, Recording } from '@/features/attempts/api/types'
import { takesOf } from './AttemptRecordings'

const phase = (kind: Phase['kind'], index = 0): Phase => ({
  kind,
  index,
  limitSec: 60,
  startedAt: null,
  endedAt: null,
  pausedSec: 0,
  pausedAt: null,
  skipped: false,
  recorded: kind !== 'preparation',
  deadline: null,
  usedSec: 0,
})

const rec = (id: string, phase: number, createdAt: string, durationMs = 0): Recording => ({
  id,
  phase,
  mimeType: 'audio/webm',
  chunks: 1,
  bytes: 10,
  durationMs,
  complete: true,
  deleted: false,
  createdAt,
})

describe('takesOf', () => {
  it('orders recordings by phase and part, naming each', () => {
    const phases = [phase('preparation'), phase('presentation'), phase('think', 1), phase('answer', 1), phase('closing')]
    const takes = takesOf({
      phases,
      recordings: [rec('c', 4, '2026-01-01T00:09:00Z'), rec('b', 1, '2026-01-01T00:05:00Z', 61_000), rec('a', 1, '2026-01-01T00:01:00Z'), rec('d', 3, '2026-01-01T00:07:00Z')],
    })
    expect(takes.map((t) => [t.recording.id, t.label])).toEqual([
      ['a', 'Exposición (parte 1 de 2)'],
      ['b', 'Exposición (parte 2 de 2)'],
      ['d', 'Pregunta 1: respuesta'],
      ['c', 'Alegato de cierre'],
    ])
  })
})
