import { describe, expect, it, vi } from 'vitest'
import { renderHook, waitFor } from '@testing-library/react'
import { useRunnerUploads } from './use-runner-uploads'

const resume = vi.hoisted(() => ({ pending: [] as { id: string; done: () => void; fail: () => void }[] }))
vi.mock('../recording/recorder', () => ({
  resumePendingUploads: (id: string) =>
    new Promise<void>((done, fail) => resume.pending.push({ id, done, fail: () => fail(new Error('IndexedDB')) })),
}))

describe('useRunnerUploads', () => {
  it('is resumed once what the browser held is sent, and keeps one queue per attempt', async () => {
    const { result, rerender } = renderHook(() => useRunnerUploads('a-1'))
    const queue = result.current.queue
    expect(result.current.resumed).toBe(false)
    expect(resume.pending.map((p) => p.id)).toEqual(['a-1'])
    resume.pending[0].done()
    await waitFor(() => expect(result.current.resumed).toBe(true))
    rerender()
    expect(result.current.queue).toBe(queue)
    expect(result.current.upload.online).toBeTypeOf('boolean')
  })

  it('is resumed after a failure too: the new take must not wait forever', async () => {
    resume.pending.length = 0
    const { result } = renderHook(() => useRunnerUploads('a-2'))
    resume.pending[0].fail()
    await waitFor(() => expect(result.current.resumed).toBe(true))
  })
})
