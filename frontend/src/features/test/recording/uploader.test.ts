import 'fake-indexeddb/auto'
import { createHash } from 'node:crypto'
import { act, renderHook } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { addRecording, appendChunk, getRecording, listPendingChunks, markStopped } from './store'
import { apiError, blob, fakeServer, freshStore, tick, until, useNodeBlob } from './recording.test-helper'
import { UploadQueue, UploadStoppedError, getUploadQueue, useUploadStatus, type UploadError } from './uploader'

const A = 'att-1'
const queues: UploadQueue[] = []

function queue(opts = {}) {
  const q = new UploadQueue(A, { random: () => 0.5, ...opts })
  queues.push(q)
  return q
}

// A recording with the given chunk contents, stopped unless told otherwise.
async function recording(contents: string[], { stopped = true, phase = 2, durationMs = 6000, levels = [0.1, 0.6, 0.02] } = {}) {
  const r = await addRecording({ attemptId: A, phase, mimeType: 'audio/webm;codecs=opus' })
  for (const c of contents) await appendChunk(r.id, blob(c))
  if (stopped) await markStopped(r.id, { durationMs, levels })
  return r.id
}

let online = true

beforeAll(() => {
  useNodeBlob()
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
})
afterAll(() => vi.unstubAllGlobals())
beforeEach(async () => {
  online = true
  await freshStore()
})
afterEach(() => {
  queues.splice(0).forEach((q) => q.stop())
  vi.useRealTimers()
})

const base = (rid: string) => `/api/attempts/${A}/recordings/${rid}`

describe('UploadQueue', () => {
  it('uploads in order, one request at a time, then completes with the right body', async () => {
    const server = fakeServer()
    const rid = await recording(['c0', 'c1', 'c2'])
    await queue().flush()

    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT ${base(rid)}`,
      `PUT ${base(rid)}/chunks/0`,
      `PUT ${base(rid)}/chunks/1`,
      `PUT ${base(rid)}/chunks/2`,
      `POST ${base(rid)}/complete`,
    ])
    expect(server.requests[0].body).toEqual({ phase: 2, mimeType: 'audio/webm;codecs=opus' })
    expect(server.requests[4].body).toEqual({ chunks: 3, durationMs: 6000, levels: [0.1, 0.6, 0.02] })
    expect(server.state.maxInflight).toBe(1)
    expect([...server.chunks.get(rid)!.values()]).toEqual(['c0', 'c1', 'c2'])
    expect(await listPendingChunks(A)).toEqual([])
    expect((await getRecording(rid))?.completed).toBe(true)
  })

  it('sends raw bytes with a hex SHA-256 header', async () => {
    const server = fakeServer()
    await recording(['hello chunk'])
    await queue().flush()
    const put = server.requests.find((r) => r.path.endsWith('/chunks/0'))!
    expect(put.body).toBe('hello chunk')
    expect(put.headers['x-chunk-sha256']).toBe(createHash('sha256').update('hello chunk').digest('hex'))
    expect(put.headers['content-type']).toBe('application/octet-stream')
  })

  it('deletes a chunk only after the server acknowledged it', async () => {
    const seenPending: number[][] = []
    fakeServer(async (req) => {
      if (req.path.includes('/chunks/')) seenPending.push((await listPendingChunks(A)).map((c) => c.seq))
      return undefined
    })
    await recording(['a', 'b', 'c'])
    await queue().flush()
    // While chunk n is being sent, chunks n.. are still stored.
    expect(seenPending).toEqual([[0, 1, 2], [1, 2], [2]])
  })

  it('uploads several recordings oldest first and leaves a live one uncompleted', async () => {
    const server = fakeServer()
    const first = await recording(['p0', 'p1'])
    const live = await recording(['q0'], { stopped: false })
    const q = queue()
    await q.flush()
    expect(server.requests.map((r) => r.path)).toEqual([
      base(first),
      `${base(first)}/chunks/0`,
      `${base(first)}/chunks/1`,
      `${base(first)}/complete`,
      base(live),
      `${base(live)}/chunks/0`,
    ])
    expect((await getRecording(live))?.completed).toBe(false)

    // The recording goes on and stops: the create call is not repeated.
    await appendChunk(live, blob('q1'))
    await markStopped(live, { durationMs: 4000, levels: [] })
    await q.flush()
    expect(server.requests.slice(6).map((r) => r.path)).toEqual([`${base(live)}/chunks/1`, `${base(live)}/complete`])
    expect(server.requests.at(-1)!.body).toEqual({ chunks: 2, durationMs: 4000 }) // no levels when none were measured
  })

  it('retries a 503 with backoff, then succeeds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let failures = 1
    const server = fakeServer((req) => (req.path.endsWith('/chunks/0') && failures-- > 0 ? apiError(503, 'unavailable') : undefined))
    const rid = await recording(['x'])
    const q = queue()
    let done = false
    void q.flush().then(
      () => (done = true),
      () => undefined,
    )

    await until(() => q.getStatus().lastError !== null, 'the 503')
    expect(q.getStatus().lastError).toMatchObject({ kind: 'transient', status: 503, retrying: true, recordingId: rid, seq: 0 })
    expect(await listPendingChunks(A)).toHaveLength(1)
    const sent = server.requests.length

    await vi.advanceTimersByTimeAsync(999) // first delay is 1 s (random 0.5: no jitter)
    for (let i = 0; i < 20; i++) await tick()
    expect(server.requests.length).toBe(sent)

    await vi.advanceTimersByTimeAsync(1)
    await until(() => done, 'flush')
    expect(server.requests.filter((r) => r.path.endsWith('/chunks/0'))).toHaveLength(2)
    expect(q.getStatus().lastError).toBeNull()
    expect((await getRecording(rid))?.completed).toBe(true)
  })

  it('waits the Retry-After of a busy server (plus jitter), says so calmly, and loses nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let refusals = 2
    const busy = () =>
      new Response(JSON.stringify({ error: { code: 'server_busy', message: 'El servidor está ocupado.' } }), {
        status: 503,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '3' },
      })
    const server = fakeServer((req) => (req.path.endsWith('/chunks/1') && refusals-- > 0 ? busy() : undefined))
    const rid = await recording(['c0', 'c1', 'c2'])
    const q = queue() // random 0.5: a quarter of Retry-After as jitter
    let done = false
    void q.flush().then(
      () => (done = true),
      () => undefined,
    )

    await until(() => q.getStatus().lastError !== null, 'the 503')
    expect(q.getStatus().lastError).toMatchObject({
      kind: 'busy',
      status: 503,
      retrying: true,
      retryAfterMs: 3000,
      message: 'El servidor está ocupado; sus grabaciones se guardan y se enviarán en unos segundos.',
    })
    const sent = server.requests.length
    await vi.advanceTimersByTimeAsync(3749) // 3 s × 1.25
    for (let i = 0; i < 20; i++) await tick()
    expect(server.requests.length).toBe(sent)
    await vi.advanceTimersByTimeAsync(1)
    await until(() => server.requests.length > sent, 'the second try')
    await until(() => q.getStatus().lastError !== null && server.requests.length === sent + 1, 'the second refusal')
    await vi.advanceTimersByTimeAsync(3750)
    await until(() => done, 'flush')
    expect([...server.chunks.get(rid)!.values()]).toEqual(['c0', 'c1', 'c2'])
    expect(q.getStatus().lastError).toBeNull()
    expect((await getRecording(rid))?.completed).toBe(true)
  })

  it('backs off exponentially with jitter from 1 s up to 30 s', () => {
    const low = new UploadQueue(A, { random: () => 0 })
    const high = new UploadQueue(A, { random: () => 0.999999 })
    queues.push(low, high)
    expect([1, 2, 3, 4, 5].map((n) => low.backoff(n))).toEqual([800, 1600, 3200, 6400, 12800])
    expect([1, 2, 3, 4, 5].map((n) => high.backoff(n))).toEqual([1200, 2400, 4800, 9600, 19200])
    expect(low.backoff(6)).toBe(24000)
    expect(high.backoff(6)).toBe(30000)
    expect(high.backoff(50)).toBe(30000)
  })

  it('waits while offline and resumes on the online event', async () => {
    online = false
    const server = fakeServer()
    const rid = await recording(['o0', 'o1'])
    const q = queue()
    let done = false
    void q.flush().then(
      () => (done = true),
      () => undefined,
    )
    for (let i = 0; i < 50; i++) await tick()
    expect(server.requests).toEqual([])
    expect(q.getStatus()).toMatchObject({ online: false, uploading: false })
    expect(done).toBe(false)

    online = true
    window.dispatchEvent(new Event('online'))
    await until(() => done, 'flush after reconnecting')
    expect(q.getStatus().online).toBe(true)
    expect(server.chunks.get(rid)?.size).toBe(2)
  })

  it('keeps the pending counts current while offline', async () => {
    online = false
    fakeServer()
    const rid = await recording(['abc', 'de'], { stopped: false })
    const q = queue()
    q.kick()
    await until(() => q.getStatus().pendingChunks === 2, 'two pending')
    expect(q.getStatus()).toMatchObject({ pendingBytes: 5, pendingRecordings: 0, online: false })
    await appendChunk(rid, blob('fghi'))
    await markStopped(rid, { durationMs: 1, levels: [] })
    q.kick() // what the recorder does after each stored chunk
    await until(() => q.getStatus().pendingChunks === 3, 'three pending')
    expect(q.getStatus()).toMatchObject({ pendingBytes: 9, pendingRecordings: 1 })
  })

  it('stops between chunks when the connection drops, and goes on when it is back', async () => {
    const server = fakeServer((req) => {
      if (req.path.endsWith('/chunks/0')) {
        online = false
        window.dispatchEvent(new Event('offline'))
      }
      return undefined
    })
    await recording(['a', 'b'])
    const q = queue()
    let done = false
    void q.flush().then(
      () => (done = true),
      () => undefined,
    )
    await until(() => q.getStatus().online === false && !q.getStatus().uploading, 'offline')
    for (let i = 0; i < 30; i++) await tick()
    expect(server.requests.map((r) => r.path.split('/').slice(-2).join('/'))).toEqual([expect.any(String), 'chunks/0'])
    expect(q.getStatus().pendingChunks).toBe(1)
    online = true
    window.dispatchEvent(new Event('online'))
    await until(() => done, 'flush')
  })

  it('is idempotent when a chunk is re-sent after a lost response', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    let lose = true
    const server = fakeServer(async (req) => {
      if (req.path.endsWith('/chunks/1') && lose) {
        lose = false
        // The server stores the chunk, but the response never arrives.
        const rid = req.path.split('/')[5]
        server.chunks.get(rid)!.set(1, req.body as string)
        throw new TypeError('Failed to fetch')
      }
      return undefined
    })
    const rid = await recording(['a', 'b', 'c'])
    const q = queue()
    let done = false
    void q.flush().then(
      () => (done = true),
      () => undefined,
    )
    await until(() => q.getStatus().lastError?.status === 0, 'the lost response')
    expect((await listPendingChunks(A)).map((c) => c.seq)).toEqual([1, 2])
    await vi.advanceTimersByTimeAsync(1000)
    await until(() => done, 'flush')
    expect(server.requests.filter((r) => r.path.endsWith('/chunks/1'))).toHaveLength(2)
    expect([...server.chunks.get(rid)!.values()]).toEqual(['a', 'b', 'c'])
    expect(server.completed.get(rid)).toMatchObject({ chunks: 3 })
  })

  it('surfaces 409 chunk_conflict, keeps the chunk and goes on with other recordings', async () => {
    const server = fakeServer()
    const bad = await recording(['mine'])
    const good = await recording(['ok'])
    server.chunks.set(bad, new Map([[0, 'different']]))
    const q = queue()
    const err = (await q.flush().catch((e: unknown) => e)) as UploadError
    expect(err).toMatchObject({ kind: 'conflict', status: 409, code: 'chunk_conflict', recordingId: bad, seq: 0, retrying: false })
    expect(err.message).toMatch(/no coincide/)
    expect(q.getStatus().lastError).toMatchObject({ kind: 'conflict' })
    expect((await listPendingChunks(A)).map((c) => [c.recordingId, c.seq])).toEqual([[bad, 0]])
    expect(server.completed.has(bad)).toBe(false)
    expect(server.completed.has(good)).toBe(true)
    expect(server.requests.filter((r) => r.path === `${base(bad)}/chunks/0`)).toHaveLength(1) // not retried in a loop
  })

  it.each([
    ['phase_not_started', 'Esa fase aún no ha comenzado: todavía no se puede grabar.'],
    ['attempt_graded', 'El tutor ya calificó este intento: no se pueden agregar grabaciones.'],
  ])('drops a take whose registration the server refuses for good (409 %s) and goes on', async (code, message) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const refused = new Set<string>()
    const server = fakeServer((req) => (req.method === 'PUT' && refused.has(req.path) ? apiError(409, code, message) : undefined))
    const bad = await recording(['lost-0', 'lost-1'])
    const live = await recording(['live-0'], { stopped: false })
    const good = await recording(['ok'])
    refused.add(base(bad))
    refused.add(base(live))
    const q = queue()
    await q.flush() // resolves: nothing is left waiting

    // Each refused take was asked once, then forgotten with its chunks.
    expect(server.requests.filter((r) => r.path === base(bad))).toHaveLength(1)
    expect(server.requests.filter((r) => r.path.startsWith(`${base(bad)}/`))).toEqual([])
    expect(await getRecording(bad)).toBeUndefined()
    expect(await getRecording(live)).toBeUndefined()
    expect(server.completed.has(good)).toBe(true)
    expect(await listPendingChunks(A)).toEqual([])
    expect(q.getStatus()).toMatchObject({ lastError: null, halted: false, pendingChunks: 0, pendingRecordings: 0 })
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`${bad} of phase 2 for good (${code}`))
    expect(warn).toHaveBeenCalledTimes(2)

    // The queue goes on with later takes.
    const later = await recording(['later'])
    await q.flush()
    expect(server.completed.has(later)).toBe(true)
    warn.mockRestore()
  })

  it("drops a take over the phase's limit once, and says so in the status", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const message = 'Esta fase ya tiene 2 grabaciones, el máximo en simulacro: no se pueden agregar más.'
    let refuse = ''
    const server = fakeServer((req) => (req.method === 'PUT' && req.path === refuse ? apiError(409, 'too_many_takes', message) : undefined))
    const over = await recording(['x-0', 'x-1'])
    refuse = base(over)
    const q = queue()
    await q.flush()
    expect(server.requests.filter((r) => r.path.startsWith(base(over)))).toHaveLength(1)
    expect(await getRecording(over)).toBeUndefined()
    expect(q.getStatus()).toMatchObject({
      halted: false,
      pendingChunks: 0,
      lastError: { kind: 'refused', code: 'too_many_takes', message, retrying: false },
    })
    // The next take goes up and clears the notice.
    const next = await recording(['y-0'])
    await q.flush()
    expect(server.completed.has(next)).toBe(true)
    expect(q.getStatus().lastError).toBeNull()
    warn.mockRestore()
  })

  it.each([
    ['storage_quota_exceeded', 'Sus grabaciones ya ocupan el espacio permitido (500 MB).'],
    ['recording_too_large', 'La grabación supera el tamaño máximo de 64 MB.'],
  ])(
    'parks a recording whose chunk the server refuses for a limit (409 %s), keeping its audio, without retrying',
    async (code, message) => {
      const server = fakeServer((req) => (req.path.endsWith('/chunks/1') ? apiError(409, code, message) : undefined))
      const rid = await recording(['a', 'b', 'c'])
      const q = queue()
      const err = (await q.flush().catch((e: unknown) => e)) as UploadError
      expect(err).toMatchObject({ kind: 'rejected', code, message, recordingId: rid, seq: 1, retrying: false })
      expect(q.getStatus().lastError).toMatchObject({ code, message })
      expect((await listPendingChunks(A)).map((c) => c.seq)).toEqual([1, 2])
      expect(server.requests.filter((r) => r.path.endsWith('/chunks/1'))).toHaveLength(1)
      await expect(q.flush()).rejects.toMatchObject({ code })
      expect(server.requests.filter((r) => r.path.endsWith('/chunks/1'))).toHaveLength(1) // still not retried in a loop
    },
  )

  it('parks a take refused with another 409 on registration, keeping its audio', async () => {
    const server = fakeServer((_req, n) => (n === 1 ? apiError(409, 'otra_cosa', 'Otro conflicto') : undefined))
    const rid = await recording(['kept'])
    const err = (await queue()
      .flush()
      .catch((e: unknown) => e)) as UploadError
    expect(err).toMatchObject({ kind: 'rejected', code: 'otra_cosa', recordingId: rid })
    expect(await listPendingChunks(A)).toHaveLength(1)
    expect(server.requests).toHaveLength(1)
  })

  it('halts on 404 (attempt gone), keeping everything', async () => {
    const server = fakeServer(() => apiError(404, 'not_found', 'No encontrado'))
    await recording(['a', 'b'])
    const q = queue()
    const err = (await q.flush().catch((e: unknown) => e)) as UploadError
    expect(err).toMatchObject({ kind: 'gone', status: 404 })
    expect(err.message).toMatch(/se conservan en este equipo/)
    expect(q.getStatus()).toMatchObject({ halted: true, lastError: { kind: 'gone' }, pendingChunks: 2 })
    expect(server.requests).toHaveLength(1)
    expect(await listPendingChunks(A)).toHaveLength(2)
    await expect(q.flush()).rejects.toMatchObject({ kind: 'gone' })
  })

  it('surfaces chunks_missing on complete with the missing seqs', async () => {
    const server = fakeServer((req) => (req.path.endsWith('/chunks/1') ? new Response(null, { status: 204 }) : undefined))
    const rid = await recording(['a', 'b'])
    const err = (await queue()
      .flush()
      .catch((e: unknown) => e)) as UploadError
    expect(err).toMatchObject({ kind: 'missing', recordingId: rid, details: { missing: [1] } })
    expect(server.completed.size).toBe(0)
  })

  it('marks a recording stopped before any audio as done without calling the server', async () => {
    const server = fakeServer()
    const rid = await recording([])
    await queue().flush()
    expect(server.requests).toEqual([])
    expect((await getRecording(rid))?.completed).toBe(true)
  })

  it('reports pending chunks and bytes, and stop() rejects flush and aborts', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    fakeServer(async (req) => {
      if (req.path.includes('/chunks/')) await gate
      return undefined
    })
    await recording(['12345', '678'])
    const q = queue()
    const statuses: { pendingChunks: number; pendingBytes: number; uploading: boolean }[] = []
    q.subscribe((s) => statuses.push(s))
    const flushed = q.flush()
    await until(() => q.getStatus().uploading && q.getStatus().pendingChunks === 2, 'uploading')
    expect(q.getStatus()).toMatchObject({ pendingChunks: 2, pendingBytes: 8, pendingRecordings: 1 })
    q.stop()
    release()
    await expect(flushed).rejects.toBeInstanceOf(UploadStoppedError)
    await expect(q.flush()).rejects.toBeInstanceOf(UploadStoppedError)
    expect(q.getStatus().halted).toBe(true)
    expect(statuses.length).toBeGreaterThan(0)
    expect(await listPendingChunks(A)).toHaveLength(2)
  })

  it('retry() resumes after a halt (e.g. signed in again after a 401)', async () => {
    let signedIn = false
    const server = fakeServer(() => (signedIn ? undefined : apiError(401, 'unauthenticated')))
    const rid = await recording(['a'])
    const q = queue()
    await expect(q.flush()).rejects.toMatchObject({ kind: 'auth' })
    signedIn = true
    q.retry()
    await q.flush()
    expect(server.completed.has(rid)).toBe(true)
  })

  it('shares one queue per attempt and useUploadStatus follows it', async () => {
    fakeServer()
    const q = getUploadQueue(A)
    queues.push(q)
    expect(getUploadQueue(A)).toBe(q)
    await recording(['abc'])
    const { result } = renderHook(() => useUploadStatus(q))
    expect(result.current.pendingChunks).toBe(0)
    await act(async () => {
      q.kick()
      await until(() => q.getStatus().pendingChunks === 1 || q.getStatus().pendingRecordings === 0, 'a plan')
    })
    await act(() => q.flush())
    expect(result.current).toMatchObject({ pendingChunks: 0, pendingRecordings: 0, uploading: false, lastError: null })
    act(() => q.stop())
    expect(getUploadQueue(A)).not.toBe(q)
    getUploadQueue(A).stop()

    const { result: none } = renderHook(() => useUploadStatus(null))
    expect(none.current).toMatchObject({ pendingChunks: 0, online: true })
  })
})
