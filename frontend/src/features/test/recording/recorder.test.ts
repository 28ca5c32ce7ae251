import 'fake-indexeddb/auto'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { PhaseRecorder, MAX_CHUNK_BYTES, resumePendingUploads } from './recorder'
import { chunkBody, getRecording, listPendingChunks } from './store'
import { fakeServer, freshStore, tick, until, useNodeBlob } from './recording.test-helper'
import { UploadQueue } from './uploader'

// jsdom has no MediaRecorder: this one emits the blobs a test tells it to,
// and on stop() the last blob then the stop event, asynchronously, like a
// browser.
class FakeMediaRecorder extends EventTarget {
  static instances: FakeMediaRecorder[] = []
  static isTypeSupported = (t: string) => t.startsWith('audio/webm')
  state: 'inactive' | 'recording' | 'paused' = 'inactive'
  mimeType: string
  timeslice: number | undefined
  options: MediaRecorderOptions | undefined
  tail = 'last'
  constructor(
    readonly stream: MediaStream,
    options?: MediaRecorderOptions,
  ) {
    super()
    this.options = options
    this.mimeType = options?.mimeType ?? ''
    FakeMediaRecorder.instances.push(this)
  }
  start(timeslice?: number) {
    this.state = 'recording'
    this.timeslice = timeslice
  }
  emit(content: string | Blob) {
    const data = typeof content === 'string' ? new Blob([content], { type: this.mimeType }) : content
    this.dispatchEvent(Object.assign(new Event('dataavailable'), { data }))
  }
  requestData() {
    setImmediate(() => this.emit('partial'))
  }
  pause() {
    this.state = 'paused'
  }
  resume() {
    this.state = 'recording'
  }
  stop() {
    this.state = 'inactive'
    setImmediate(() => {
      if (this.tail) this.emit(this.tail)
      this.dispatchEvent(new Event('stop'))
    })
  }
  // The browser ends the recording by itself (microphone unplugged).
  die() {
    this.state = 'inactive'
    this.emit('died')
    this.dispatchEvent(new Event('stop'))
  }
}

const A = 'att-9'
const stream = {} as MediaStream
const latest = () => FakeMediaRecorder.instances.at(-1)!
let clock = 0
const queues: UploadQueue[] = []

function newQueue() {
  const q = new UploadQueue(A, { random: () => 0.5 })
  queues.push(q)
  return q
}

function start(queue: UploadQueue, extra: Partial<Parameters<typeof PhaseRecorder.start>[0]> = {}) {
  return PhaseRecorder.start({ attemptId: A, phase: 2, stream, queue, now: () => clock, ...extra })
}

beforeAll(() => {
  useNodeBlob()
  vi.stubGlobal('MediaRecorder', FakeMediaRecorder)
})
afterAll(() => vi.unstubAllGlobals())
beforeEach(async () => {
  clock = 1000
  FakeMediaRecorder.instances = []
  await freshStore()
})
afterEach(() => {
  queues.splice(0).forEach((q) => q.stop())
  vi.useRealTimers()
})

describe('PhaseRecorder', () => {
  it('starts MediaRecorder with the picked type, a 2 s timeslice and a recording row', async () => {
    fakeServer()
    const rec = await start(newQueue())
    const mr = latest()
    expect(mr.options).toMatchObject({ mimeType: 'audio/webm;codecs=opus', audioBitsPerSecond: 64000 })
    expect(mr.timeslice).toBe(2000)
    expect(rec.state).toBe('recording')
    expect(rec.mimeType).toBe('audio/webm;codecs=opus')
    expect(await getRecording(rec.recordingId)).toMatchObject({
      attemptId: A,
      phase: 2,
      mimeType: 'audio/webm;codecs=opus',
      nextSeq: 0,
      stopped: false,
    })
    await rec.stop()
  })

  it('stores each chunk in IndexedDB before the queue hears of it', async () => {
    const server = fakeServer()
    const queue = newQueue()
    const seenAtKick: Promise<number[]>[] = []
    const kick = queue.kick.bind(queue)
    vi.spyOn(queue, 'kick').mockImplementation(() => {
      seenAtKick.push(listPendingChunks(A).then((cs) => cs.map((c) => c.seq)))
      kick()
    })
    const rec = await start(queue)
    latest().emit('c0')
    latest().emit('') // empty blobs are ignored
    latest().emit('c1')
    await until(async () => (await getRecording(rec.recordingId))?.nextSeq === 2, 'two chunks stored')
    // When the queue is told about chunk n, chunk n is already stored.
    expect(seenAtKick).toHaveLength(2)
    expect(await seenAtKick[0]).toContain(0)
    expect(await seenAtKick[1]).toContain(1)
    await queue.flush()
    expect([...server.chunks.get(rec.recordingId)!.values()]).toEqual(['c0', 'c1'])
    expect(await listPendingChunks(A)).toEqual([]) // acknowledged ones are gone
    await rec.stop()
  })

  it('stop() stores the last chunk, marks the recording stopped and gets it completed', async () => {
    const server = fakeServer()
    const queue = newQueue()
    const rec = await start(queue)
    latest().emit('c0')
    latest().emit('c1')
    clock += 4500
    const result = await rec.stop()
    expect(result).toEqual({ recordingId: rec.recordingId, chunks: 3, durationMs: 4500 })
    expect(rec.state).toBe('stopped')
    expect(await getRecording(rec.recordingId)).toMatchObject({ stopped: true, nextSeq: 3, durationMs: 4500 })
    expect(await rec.stop()).toEqual(result) // idempotent

    await queue.flush()
    expect([...server.chunks.get(rec.recordingId)!.values()]).toEqual(['c0', 'c1', 'last'])
    expect(server.completed.get(rec.recordingId)).toEqual({ chunks: 3, durationMs: 4500 })
    expect((await getRecording(rec.recordingId))?.completed).toBe(true)
  })

  it('asks for the partial chunk on pagehide', async () => {
    fakeServer()
    const queue = newQueue()
    queue.stop() // nothing uploads: the chunk must just be stored
    const rec = await start(queue)
    window.dispatchEvent(new Event('pagehide'))
    await until(async () => (await listPendingChunks(A)).length === 1, 'the partial chunk')
    expect(await chunkBody((await listPendingChunks(A))[0]).text()).toBe('partial')
    latest().tail = ''
    await rec.stop()
  })

  it('cuts blobs larger than the server limit into several chunks', async () => {
    fakeServer()
    const queue = newQueue()
    queue.stop()
    const rec = await start(queue)
    const big = new Blob([new Uint8Array(MAX_CHUNK_BYTES * 2 + 10)], { type: 'audio/webm' })
    latest().emit(big)
    latest().tail = ''
    const r = await rec.stop()
    expect(r.chunks).toBe(3)
    expect((await listPendingChunks(A)).map((c) => c.bytes)).toEqual([MAX_CHUNK_BYTES, MAX_CHUNK_BYTES, 10])
  })

  it('excludes paused time from the duration', async () => {
    fakeServer()
    const rec = await start(newQueue())
    clock += 1000
    rec.pause()
    expect(rec.state).toBe('paused')
    expect(latest().state).toBe('paused')
    clock += 60_000
    rec.resume()
    clock += 500
    expect(rec.durationMs).toBe(1500)
    expect((await rec.stop()).durationMs).toBe(1500)
  })

  it('keeps and finishes a recording the browser ended by itself', async () => {
    fakeServer()
    const onInterrupted = vi.fn()
    const queue = newQueue()
    const rec = await start(queue, { onInterrupted })
    latest().emit('c0')
    clock += 2000
    latest().die()
    const result = await rec.ended
    expect(result).toMatchObject({ chunks: 2, durationMs: 2000 })
    expect(onInterrupted).toHaveBeenCalledWith(result)
    await queue.flush()
    expect((await getRecording(rec.recordingId))?.completed).toBe(true)
  })

  it('samples levels every 200 ms and sends them on complete', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    class FakeAudioContext {
      state = 'running'
      createMediaStreamSource = () => ({ connect() {}, disconnect() {} })
      createAnalyser = () => ({ fftSize: 0, getFloatTimeDomainData: (b: Float32Array) => b.fill(0.1) })
      close = () => Promise.resolve()
    }
    vi.stubGlobal('AudioContext', FakeAudioContext)
    const server = fakeServer()
    const queue = newQueue()
    const rec = await start(queue)
    for (let i = 0; i < 5; i++) {
      clock += 200
      vi.advanceTimersByTime(200)
    }
    await rec.stop()
    await queue.flush()
    expect(server.completed.get(rec.recordingId)).toEqual({ chunks: 1, durationMs: 1000, levels: [0.667, 0.667, 0.667, 0.667, 0.667] })
    vi.stubGlobal('AudioContext', undefined)
  })
})

describe('resumePendingUploads', () => {
  it('completes a recording the page died in, with the chunks and duration it had', async () => {
    const server = fakeServer()
    // First page: record two chunks, nothing uploaded (offline queue), then the page dies.
    const deadQueue = newQueue()
    deadQueue.stop()
    const rec = await start(deadQueue)
    latest().emit('c0')
    clock += 2000
    latest().emit('c1')
    await until(async () => (await getRecording(rec.recordingId))?.nextSeq === 2, 'chunks stored')
    expect(await getRecording(rec.recordingId)).toMatchObject({ stopped: false, durationMs: 2000 })

    // Reload: fresh modules (nothing is live any more), same IndexedDB.
    vi.resetModules()
    const fresh = await import('./recorder')
    const { UploadQueue: FreshQueue } = await import('./uploader')
    const queue = new FreshQueue(A)
    queues.push(queue as unknown as UploadQueue)
    const r = await fresh.resumePendingUploads(A, queue)
    expect(r).toEqual({ interrupted: [rec.recordingId], pending: 1 })
    await queue.flush()

    expect([...server.chunks.get(rec.recordingId)!.values()]).toEqual(['c0', 'c1'])
    expect(server.completed.get(rec.recordingId)).toEqual({ chunks: 2, durationMs: 2000 })
    expect(await getRecording(rec.recordingId)).toMatchObject({ stopped: true, completed: true })
    expect(await listPendingChunks(A)).toEqual([])
  })

  it('leaves a recording that is live in this page alone', async () => {
    fakeServer()
    const queue = newQueue()
    const rec = await start(queue)
    latest().emit('c0')
    await tick()
    const r = await resumePendingUploads(A, queue)
    expect(r.interrupted).toEqual([])
    expect((await getRecording(rec.recordingId))?.stopped).toBe(false)
    await rec.stop()
    await queue.flush()
  })
})
