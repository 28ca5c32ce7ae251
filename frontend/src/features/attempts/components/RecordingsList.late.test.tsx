import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import type { Attempt, Phase, Recording } from '../api/types'
import { RecordingsList, lateNote } from './RecordingsList'

// The player fetches media; here only the list around it matters.
vi.mock('@/features/transcripts/components/RecordingWithTranscript', () => ({
  RecordingWithTranscript: ({ label }: { label: string }) => <p>Grabación: {label}</p>,
}))

const rec = (id: string, createdAt: string, late?: boolean): Recording => ({
  id,
  phase: 1,
  createdAt,
  mimeType: 'audio/webm;codecs=opus',
  chunks: 1,
  bytes: 1,
  durationMs: 1000,
  complete: true,
  deleted: false,
  late,
})

describe('RecordingsList', () => {
  it('says which takes were registered after their phase ended, to the student and to the tutor', () => {
    const attempt = {
      id: 'a1',
      phases: [{ kind: 'preparation', index: 0 }, { kind: 'presentation', index: 0 }] as Phase[],
      recordings: [rec('in-time', '2026-11-22T10:01:00Z', false), rec('late', '2026-11-22T10:30:00Z', true)],
    } as Attempt
    for (const canDelete of [true, false]) {
      const { unmount } = render(
        <QueryClientProvider client={new QueryClient()}>
          <RecordingsList attempt={attempt} canDelete={canDelete} canEditTranscripts />
        </QueryClientProvider>,
      )
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
