import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { storeAnswer } from './store-answer'

describe('storeAnswer', () => {
  it('keeps the answer to a change when a read sent before the change lands after it', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    let landRead: (v: string) => void = () => undefined
    const read = qc.fetchQuery({ queryKey: ['score'], queryFn: () => new Promise<string>((r) => (landRead = r)) }).catch(() => undefined)

    storeAnswer(qc, ['score'], 'sent')
    landRead('pending')
    await read

    expect(qc.getQueryData(['score'])).toBe('sent')
    expect(qc.getQueryState(['score'])?.fetchStatus).toBe('idle')
  })

  it('without it, the late read wins (the race it exists for)', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    let landRead: (v: string) => void = () => undefined
    const read = qc.fetchQuery({ queryKey: ['score'], queryFn: () => new Promise<string>((r) => (landRead = r)) })

    qc.setQueryData(['score'], 'sent')
    landRead('pending')
    await read

    expect(qc.getQueryData(['score'])).toBe('pending')
  })
})
