import 'fake-indexeddb/auto'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  addRecording,
  chunkBody,
  appendChunk,
  deleteAttemptData,
  deleteChunk,
  getRecording,
  listPendingChunks,
  listRecordings,
  listStoppedIncomplete,
  markCompleted,
  markStopped,
  pendingAttemptIds,
} from './store'
import { blob, freshStore, useNodeBlob } from './recording.test-helper'

beforeAll(useNodeBlob)
afterAll(() => vi.unstubAllGlobals())
beforeEach(freshStore)

describe('recording store', () => {
  it('round-trips a recording and its chunks, blobs included', async () => {
    const rec = await addRecording({ attemptId: 'a1', phase: 3, mimeType: 'audio/webm;codecs=opus' })
    expect(rec.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(rec).toMatchObject({ attemptId: 'a1', phase: 3, nextSeq: 0, stopped: false, completed: false, levels: [], durationMs: 0 })

    const c0 = await appendChunk(rec.id, blob('first'))
    const c1 = await appendChunk(rec.id, blob('second!'), { durationMs: 4000, levels: [0.1, 0.5] })
    expect([c0.seq, c1.seq]).toEqual([0, 1])
    expect(c1.bytes).toBe(7)

    const stored = await getRecording(rec.id)
    expect(stored).toMatchObject({ nextSeq: 2, durationMs: 4000, levels: [0.1, 0.5] })

    const chunks = await listPendingChunks('a1')
    expect(chunks.map((c) => c.seq)).toEqual([0, 1])
    expect(await chunkBody(chunks[1]).text()).toBe('second!')
    expect(chunkBody(chunks[1]).type).toBe('audio/webm')
    expect(chunks[0]).toMatchObject({ recordingId: rec.id, attemptId: 'a1', bytes: 5 })
  })

  it('lists pending chunks oldest recording first, then by seq, per attempt', async () => {
    const r1 = await addRecording({ attemptId: 'a1', phase: 3, mimeType: 'audio/webm' })
    const r2 = await addRecording({ attemptId: 'a1', phase: 5, mimeType: 'audio/webm' })
    const other = await addRecording({ attemptId: 'a2', phase: 3, mimeType: 'audio/webm' })
    // Interleave writes; seq numbering is per recording.
    for (let i = 0; i < 12; i++) {
      await appendChunk(i % 2 ? r2.id : r1.id, blob(`x${i}`))
    }
    await appendChunk(other.id, blob('other'))

    const pending = await listPendingChunks('a1')
    expect(pending.map((c) => [c.recordingId, c.seq])).toEqual([
      ...[0, 1, 2, 3, 4, 5].map((s) => [r1.id, s]),
      ...[0, 1, 2, 3, 4, 5].map((s) => [r2.id, s]),
    ])
    expect((await listPendingChunks('a2')).map((c) => c.recordingId)).toEqual([other.id])
    expect((await listRecordings('a1')).map((r) => r.id)).toEqual([r1.id, r2.id])
  })

  it('deletes an acknowledged chunk and nothing else', async () => {
    const r = await addRecording({ attemptId: 'a1', phase: 3, mimeType: 'audio/webm' })
    await appendChunk(r.id, blob('0'))
    await appendChunk(r.id, blob('1'))
    await appendChunk(r.id, blob('2'))
    await deleteChunk(r.id, 1)
    expect((await listPendingChunks('a1')).map((c) => c.seq)).toEqual([0, 2])
    await deleteChunk(r.id, 1) // already gone: harmless
    expect((await getRecording(r.id))?.nextSeq).toBe(3)
  })

  it('lists stopped recordings that are not completed', async () => {
    const live = await addRecording({ attemptId: 'a1', phase: 3, mimeType: 'audio/webm' })
    const stopped = await addRecording({ attemptId: 'a1', phase: 5, mimeType: 'audio/webm' })
    const done = await addRecording({ attemptId: 'a1', phase: 7, mimeType: 'audio/webm' })
    await appendChunk(stopped.id, blob('s'))
    await markStopped(stopped.id, { durationMs: 2100, levels: [0.2] })
    await markStopped(done.id, { durationMs: 10, levels: [] })
    await markCompleted(done.id)

    const incomplete = await listStoppedIncomplete('a1')
    expect(incomplete.map((r) => r.id)).toEqual([stopped.id])
    expect(incomplete[0]).toMatchObject({ stopped: true, completed: false, durationMs: 2100, levels: [0.2], nextSeq: 1 })
    expect((await getRecording(live.id))?.stopped).toBe(false)
    expect(await pendingAttemptIds()).toEqual(['a1'])
  })

  it('refuses chunks after stop and keeps the first stop', async () => {
    const r = await addRecording({ attemptId: 'a1', phase: 3, mimeType: 'audio/webm' })
    await markStopped(r.id, { durationMs: 500, levels: [] })
    await expect(appendChunk(r.id, blob('late'))).rejects.toThrow(/stopped/)
    await markStopped(r.id, { durationMs: 9999, levels: [1] })
    expect((await getRecording(r.id))?.durationMs).toBe(500)
    await expect(appendChunk('nope', blob('x'))).rejects.toThrow(/not found/)
  })

  it('deletes an attempt’s data on request', async () => {
    const r = await addRecording({ attemptId: 'a1', phase: 3, mimeType: 'audio/webm' })
    const keep = await addRecording({ attemptId: 'a2', phase: 3, mimeType: 'audio/webm' })
    await appendChunk(r.id, blob('x'))
    await appendChunk(keep.id, blob('y'))
    await deleteAttemptData('a1')
    expect(await listRecordings('a1')).toEqual([])
    expect(await listPendingChunks('a1')).toEqual([])
    expect(await listPendingChunks('a2')).toHaveLength(1)
  })
})
