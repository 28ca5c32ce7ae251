import 'fake-indexeddb/auto'
import { openDB } from 'idb'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { PhaseRecorder, recorderMessages } from './recorder'
import {
  DB_NAME,
  addRecording,
  appendChunk,
  chunkBody,
  heldInMemory,
  listPendingChunks,
  markStopped,
  memoryBytes,
  MemoryFullError,
  setMemoryLimit,
  setOpenDeadline,
  snapshot,
  storageAvailable,
} from './store'
import { blob, fakeServer, freshStore, until, useNodeBlob } from './recording.test-helper'
import { UploadQueue } from './uploader'

// Storage under pressure: IndexedDB refusing writes (a full disk, a blocked
// quota, a private window), refusing only Blobs (Safari's engine in a
// private window), or missing entirely. Audio recorded while online must
// reach the server whole, in order, and completed.

const A = 'att-pressure'
const queues: UploadQueue[] = []
let online = true

function newQueue() {
  const q = new UploadQueue(A, { random: () => 0.5, baseDelayMs: 5, maxDelayMs: 20 })
  queues.push(q)
  return q
}

const quota = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError')

// refuseWrites makes every add/put fail as a full or blocked storage does;
// with onlyBlobs, only values holding a Blob, as WebKit does in a private window.
function refuseWrites({ onlyBlobs = false } = {}) {
  const holdsBlob = (v: unknown) => v instanceof Blob || Object.values((v ?? {}) as object).some((x) => x instanceof Blob)
  for (const method of ['add', 'put'] as const) {
    const original = IDBObjectStore.prototype[method]
    vi.spyOn(IDBObjectStore.prototype, method).mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (!onlyBlobs || holdsBlob(value)) throw onlyBlobs ? new DOMException('Error preparing Blob/File data', 'UnknownError') : quota()
      return original.call(this, value, key)
    })
  }
}

// A MediaRecorder that emits what the test tells it to.
class FakeMediaRecorder extends EventTarget {
  static instances: FakeMediaRecorder[] = []
  static isTypeSupported = (t: string) => t === 'audio/mp4'
  state: 'inactive' | 'recording' | 'paused' = 'inactive'
  mimeType: string
  constructor(_stream: MediaStream, options?: MediaRecorderOptions) {
    super()
    this.mimeType = options?.mimeType ?? ''
    FakeMediaRecorder.instances.push(this)
  }
  start() {
    this.state = 'recording'
  }
  emit(content: string) {
    this.dispatchEvent(Object.assign(new Event('dataavailable'), { data: new Blob([content], { type: this.mimeType }) }))
  }
  requestData() {}
  pause() {}
  resume() {}
  stop() {
    this.state = 'inactive'
    setImmediate(() => this.dispatchEvent(new Event('stop')))
  }
}
const latest = () => FakeMediaRecorder.instances.at(-1)!

function start(queue: UploadQueue, onError = vi.fn()) {
  return PhaseRecorder.start({ attemptId: A, phase: 1, stream: {} as MediaStream, queue, onError })
}

beforeAll(() => {
  useNodeBlob()
  vi.stubGlobal('MediaRecorder', FakeMediaRecorder)
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online })
})
afterAll(() => vi.unstubAllGlobals())
beforeEach(async () => {
  online = true
  FakeMediaRecorder.instances = []
  await freshStore()
})
afterEach(() => {
  queues.splice(0).forEach((q) => q.stop())
  vi.restoreAllMocks()
  setMemoryLimit()
  setOpenDeadline()
})

describe('recording store under storage pressure', () => {
  it('stores bytes with their type, never a Blob', async () => {
    const r = await addRecording({ attemptId: A, phase: 1, mimeType: 'audio/mp4' })
    await appendChunk(r.id, blob('bytes', 'audio/mp4'))
    const d = await openDB(DB_NAME)
    const [row] = await d.getAll('chunks')
    d.close()
    expect(row.blob).toBeUndefined()
    // (fake-indexeddb clones in Node's realm, so no instanceof across realms)
    expect(Object.prototype.toString.call(row.data)).toBe('[object ArrayBuffer]')
    expect(row).toMatchObject({ type: 'audio/mp4', bytes: 5, seq: 0 })
  })

  it('records in memory when opening IndexedDB never finishes', async () => {
    // Another connection holds an older version and never lets go: the
    // store's open request stays blocked.
    const holder = await openDB('retenida', 1)
    const realOpen = indexedDB.open.bind(indexedDB)
    vi.spyOn(indexedDB, 'open').mockImplementation(() => realOpen('retenida', 2))
    setOpenDeadline(50)
    expect(await storageAvailable()).toBe(false)
    const r = await addRecording({ attemptId: A, phase: 1, mimeType: 'audio/webm' })
    const c = await appendChunk(r.id, blob('voz', 'audio/webm'))
    expect(r.volatile).toBe(true)
    expect(c.volatile).toBe(true)
    expect(heldInMemory(A)).toBe(true)
    holder.close()
  })

  it('works where IndexedDB refuses Blobs (WebKit in a private window)', async () => {
    refuseWrites({ onlyBlobs: true })
    const r = await addRecording({ attemptId: A, phase: 1, mimeType: 'audio/mp4' })
    const c = await appendChunk(r.id, blob('aac', 'audio/mp4'))
    expect(r.volatile).toBeUndefined()
    expect(c.volatile).toBeUndefined()
    expect(heldInMemory(A)).toBe(false)
  })

  it('still uploads a queue written by the build that stored Blobs', async () => {
    const server = fakeServer()
    const d = await openDB(DB_NAME, 1, {
      upgrade(db) {
        db.createObjectStore('recordings', { keyPath: 'id' }).createIndex('attemptId', 'attemptId')
        db.createObjectStore('chunks', { keyPath: ['recordingId', 'seq'] }).createIndex('attemptId', 'attemptId')
      },
    })
    const row = {
      id: 'old-take',
      attemptId: A,
      phase: 1,
      mimeType: 'audio/webm',
      nextSeq: 2,
      stopped: true,
      durationMs: 4000,
      levels: [],
      completed: false,
      createdAt: 1,
    }
    await d.put('recordings', row)
    for (const [seq, text] of ['old0', 'old1'].entries())
      await d.put('chunks', { recordingId: 'old-take', seq, blob: blob(text), attemptId: A, bytes: text.length })
    d.close()
    expect(await chunkBody((await listPendingChunks(A))[0]).text()).toBe('old0')
    await newQueue().flush()
    expect([...server.chunks.get('old-take')!.values()]).toEqual(['old0', 'old1'])
    expect(server.completed.get('old-take')).toMatchObject({ chunks: 2 })
  })

  it('keeps a take in memory when every write is refused, and bounds that memory', async () => {
    refuseWrites()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    setMemoryLimit(10)
    const r = await addRecording({ attemptId: A, phase: 1, mimeType: 'audio/webm' })
    expect(r.volatile).toBe(true)
    expect(heldInMemory(A)).toBe(true)
    expect((await appendChunk(r.id, blob('12345'))).seq).toBe(0)
    expect((await appendChunk(r.id, blob('6789'))).seq).toBe(1)
    await expect(appendChunk(r.id, blob('xx'))).rejects.toBeInstanceOf(MemoryFullError)
    expect(memoryBytes()).toBe(9)
    const s = await snapshot(A)
    expect(s.chunks.map((c) => [c.seq, c.volatile])).toEqual([
      [0, true],
      [1, true],
    ])
  })

  it('continues a take in memory with the next seq when storage fills up mid-take', async () => {
    const server = fakeServer()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const r = await addRecording({ attemptId: A, phase: 1, mimeType: 'audio/webm' })
    await appendChunk(r.id, blob('disk0'))
    refuseWrites()
    expect((await appendChunk(r.id, blob('mem1'))).seq).toBe(1)
    await markStopped(r.id, { durationMs: 4000, levels: [0.5] })
    expect((await listPendingChunks(A)).map((c) => [c.seq, Boolean(c.volatile)])).toEqual([
      [0, false],
      [1, true],
    ])
    await newQueue().flush()
    expect([...server.chunks.get(r.id)!.values()]).toEqual(['disk0', 'mem1'])
    expect(server.completed.get(r.id)).toEqual({ chunks: 2, durationMs: 4000, levels: [0.5] })
    expect(memoryBytes()).toBe(0)
  })
})

describe('a take recorded under storage pressure', () => {
  async function recordTake(queue: UploadQueue, contents: string[]) {
    const rec = await start(queue)
    for (const c of contents) latest().emit(c)
    return rec.stop()
  }

  it('reaches the server whole when IndexedDB refuses every write', async () => {
    refuseWrites()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const server = fakeServer()
    const queue = newQueue()
    const statuses: boolean[] = []
    queue.subscribe((s) => statuses.push(s.direct))
    const result = await recordTake(queue, ['a0', 'a1', 'a2'])
    await queue.flush()
    expect([...server.chunks.get(result.recordingId)!.values()]).toEqual(['a0', 'a1', 'a2'])
    expect(server.completed.get(result.recordingId)).toMatchObject({ chunks: 3 })
    expect(server.requests[0].body).toEqual({ phase: 1, mimeType: 'audio/mp4' })
    expect(queue.getStatus()).toMatchObject({ pendingChunks: 0, pendingRecordings: 0, heldChunks: 0, direct: true })
    expect(statuses).toContain(true)
  })

  it('reaches the server whole when there is no IndexedDB at all', async () => {
    vi.stubGlobal('indexedDB', undefined)
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const server = fakeServer()
      const queue = newQueue()
      const first = await recordTake(queue, ['b0', 'b1'])
      const second = await recordTake(queue, ['c0'])
      await queue.flush()
      expect([...server.chunks.get(first.recordingId)!.values()]).toEqual(['b0', 'b1'])
      expect([...server.chunks.get(second.recordingId)!.values()]).toEqual(['c0'])
      // Takes go up oldest first, each chunk in order, then its complete call.
      const order = server.requests.map((r) => r.path.split('/recordings/')[1])
      expect(order).toEqual([
        first.recordingId,
        `${first.recordingId}/chunks/0`,
        `${first.recordingId}/chunks/1`,
        `${first.recordingId}/complete`,
        second.recordingId,
        `${second.recordingId}/chunks/0`,
        `${second.recordingId}/complete`,
      ])
    } finally {
      vi.stubGlobal('indexedDB', new (await import('fake-indexeddb')).IDBFactory())
    }
  })

  it('waits through a network drop with storage refused, then sends what was recorded online and offline', async () => {
    refuseWrites()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const server = fakeServer()
    const queue = newQueue()
    const rec = await start(queue)
    latest().emit('on0')
    await until(() => server.chunks.get(rec.recordingId)?.size === 1, 'the chunk recorded online')
    online = false
    window.dispatchEvent(new Event('offline'))
    latest().emit('off1')
    latest().emit('off2')
    await until(() => queue.getStatus().heldChunks === 2, 'two chunks held in memory')
    expect(queue.getStatus()).toMatchObject({ online: false, direct: true })
    const result = await rec.stop()
    online = true
    window.dispatchEvent(new Event('online'))
    await queue.flush()
    expect([...server.chunks.get(result.recordingId)!.values()]).toEqual(['on0', 'off1', 'off2'])
    expect(server.completed.get(result.recordingId)).toMatchObject({ chunks: 3 })
  })

  it('stops the take with a clear message when memory runs out, and sends what it kept', async () => {
    refuseWrites()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    setMemoryLimit(6)
    const server = fakeServer()
    const queue = newQueue()
    online = false
    const rec = await start(queue)
    latest().emit('kept1')
    latest().emit('lost22')
    const result = await rec.ended
    expect(result.stopReason).toBe(recorderMessages.memoryFull)
    expect(result.chunks).toBe(1)
    online = true
    window.dispatchEvent(new Event('online'))
    await queue.flush()
    expect([...server.chunks.get(result.recordingId)!.values()]).toEqual(['kept1'])
    expect(server.completed.get(result.recordingId)).toMatchObject({ chunks: 1 })
  })
})
