import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query'
import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Attempt } from '@/types/api'
import { runnerQueryOptions, useSetAttempt } from './attempt-actions'

const attemptAt = (current: number) =>
  ({ id: 'A1', current, status: 'in_progress', serverTime: new Date().toISOString(), phases: [] }) as unknown as Attempt

describe('useSetAttempt', () => {
  afterEach(() => vi.restoreAllMocks())

  it('keeps the answer of a move when a read sent before it lands afterwards', async () => {
    // The runner's read of the attempt is on its way (sent when the page
    // opened, still in phase 0) when the student ends the phase and the
    // server answers with phase 1. The read lands last: it found a clustered
    // deployment's other instance before the move was written.
    let landRead: () => void = () => undefined
    const readSent = new Promise<void>((sent) => {
      vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
        sent()
        await new Promise<void>((r) => (landRead = r))
        return new Response(JSON.stringify(attemptAt(0)), { status: 200 })
      })
    })
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    client.setQueryData(runnerQueryOptions('A1').queryKey, attemptAt(0))
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
    const { result } = renderHook(() => ({ query: useQuery(runnerQueryOptions('A1')), set: useSetAttempt() }), { wrapper })
    await readSent

    act(() => result.current.set(attemptAt(1)))
    act(() => landRead())

    await waitFor(() => expect(result.current.query.fetchStatus).toBe('idle'))
    expect(result.current.query.data?.current).toBe(1)
  })
})
