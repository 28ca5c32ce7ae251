import { describe, expect, it } from 'vitest'
import type { Phase, Recording } from '../api/types'
import { recordingLabels } from './RecordingsList'

const phase = (kind: Phase['kind'], index = 0) => ({ kind, index }) as Phase
const rec = (id: string, p: number, createdAt: string): Recording => ({
  id,
  phase: p,
  createdAt,
  mimeType: 'audio/webm;codecs=opus',
  chunks: 1,
  bytes: 1,
  durationMs: 1000,
  complete: true,
  deleted: false,
})

describe('recordingLabels', () => {
  it('names recordings by phase, and by part when a phase has several, in order', () => {
    const attempt = { phases: [phase('preparation'), phase('presentation'), phase('think', 1), phase('answer', 1), phase('closing')] }
    const labels = recordingLabels(attempt, [
      rec('c', 4, '2026-11-22T10:05:00Z'),
      rec('b', 1, '2026-11-22T10:02:00Z'),
      rec('a', 1, '2026-11-22T10:01:00Z'),
      rec('d', 3, '2026-11-22T10:04:00Z'),
    ])
    expect(labels.map((l) => [l.recording.id, l.label])).toEqual([
      ['a', 'Exposición, parte 1'],
      ['b', 'Exposición, parte 2'],
      ['d', 'Pregunta 1: respuesta'],
      ['c', 'Alegato de cierre'],
    ])
  })
})
