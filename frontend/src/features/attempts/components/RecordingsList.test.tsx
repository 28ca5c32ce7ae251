import { renderWithQuery } from '@/test/render'
import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { Attempt, Phase, Recording } from '@/types/api'
import { RecordingsList, lateNote, recordingLabels } from './RecordingsList'

// The player fetches media; here only the list around it matters.
vi.mock('@/features/transcripts/components/RecordingWithTranscript', () => ({
  RecordingWithTranscript: ({ label }: { label: string }) => <p>Grabación: {label}</p>,
}))

const phase = (kind: Phase['kind'], index = 0) => ({ kind, index }) as Phase
const rec = (id: string, p: number, createdAt: string, late?: boolean): Recording => ({
  id,
  phase: p,
  createdAt,
  mimeType: 'audio/webm;codecs=opus',
  chunks: 1,
  bytes: 1,
  durationMs: 1000,
  complete: true,
  deleted: false,
  late: late ?? false,
  transcript: null,
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

describe('RecordingsList', () => {
  it('says which takes were registered after their phase ended, to the student and to the tutor', () => {
    const attempt = {
      id: 'a1',
      phases: [phase('preparation'), phase('presentation')],
      recordings: [rec('in-time', 1, '2026-11-22T10:01:00Z', false), rec('late', 1, '2026-11-22T10:30:00Z', true)],
    } as Attempt
    for (const canDelete of [true, false]) {
      const { unmount } = renderWithQuery(<RecordingsList attempt={attempt} canDelete={canDelete} canEditTranscripts />)
      const [first, second] = screen.getAllByRole('listitem')
      expect(first).toHaveTextContent('Grabación: Exposición, parte 1')
      expect(within(first).queryByText(lateNote)).toBeNull()
      expect(second).toHaveTextContent('Grabación: Exposición, parte 2')
      expect(within(second).getByText(lateNote)).toBeVisible()
      expect(lateNote).toBe('Registrada después de terminar su fase.')
      unmount()
    }
  })
})
