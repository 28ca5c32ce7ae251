import { LevelSampler } from './level'
import { pickMimeType } from '@/lib/mime'
import * as store from './store'
import type { UploadQueue } from './uploader'

// PhaseRecorder records one take of a phase. Every blob MediaRecorder emits
// is written to IndexedDB (with the next seq) before the upload queue hears
// of it, so audio survives a reload, a crash or a network drop. Where the
// browser refuses to store it, the take is held in memory and sent from
// there (store.ts); only if that memory fills up (offline for a long time
// with no storage) does the take stop, and it says why.

export const DEFAULT_TIMESLICE_MS = 2000
// Opus speech is clear at 64 kb/s: about 16 kB per 2 s chunk, 5 MB per 10 min.
export const DEFAULT_AUDIO_BITS_PER_SECOND = 64_000
// The server takes chunks up to 2 MB; bigger blobs (a browser ignoring the
// timeslice) are cut, which is safe because the server concatenates chunks.
export const MAX_CHUNK_BYTES = 1024 * 1024
// How long to wait for MediaRecorder's stop event before finishing anyway.
const STOP_GRACE_MS = 5000

export interface PhaseRecordingResult {
  recordingId: string
  chunks: number
  durationMs: number
  // Why the take stopped by itself, in Spanish for the student (set when the
  // recorder had to stop it; absent for stop() and a lost microphone).
  stopReason?: string
}

export type RecorderErrorKind = 'storage' | 'recorder'

export class RecorderError extends Error {
  readonly kind: RecorderErrorKind
  readonly cause?: unknown
  constructor(kind: RecorderErrorKind, message: string, cause?: unknown) {
    super(message)
    this.name = 'RecorderError'
    this.kind = kind
    this.cause = cause
  }
}

export const recorderMessages = {
  storage: 'No se pudo conservar el final de esta parte de la grabación. Lo grabado antes se conserva y se enviará al servidor.',
  memoryFull:
    'Se detuvo la grabación de esta parte: sin conexión y sin almacenamiento en este equipo, ya no queda memoria para guardar más audio. Lo grabado hasta ahora (salvo los últimos segundos) se enviará al volver la conexión; no cierre ni recargue la página.',
  stoppedStorage:
    'Se detuvo la grabación de esta parte porque no se pudo conservar el audio. Lo grabado hasta ahora se enviará al servidor; vuelva a grabar esta parte.',
  recorder: 'El navegador interrumpió la grabación. Revise el micrófono y vuelva a grabar esta parte.',
  unsupported: 'Este navegador no permite grabar audio. Use una versión reciente de Chrome, Edge, Firefox o Safari.',
}

export interface PhaseRecorderOptions {
  attemptId: string
  phase: number // index into the attempt's phases
  stream: MediaStream // from checkDevice(); the caller keeps ownership
  queue: UploadQueue
  timesliceMs?: number
  mimeType?: string // defaults to pickMimeType()
  audioBitsPerSecond?: number
  // Something went wrong that the student should know about (recording goes on if it can).
  onError?: (err: RecorderError) => void
  // The recording ended without stop() (microphone unplugged, OS took it
  // away); what was recorded is kept and uploaded.
  onInterrupted?: (result: PhaseRecordingResult) => void
  now?: () => number // for tests
}

// Recordings being made in this page: resumePendingUploads leaves them alone.
const live = new Set<string>()

export type PhaseRecorderState = 'recording' | 'paused' | 'stopped'

export class PhaseRecorder {
  readonly recordingId: string
  readonly mimeType: string
  readonly attemptId: string
  readonly phase: number

  private readonly mr: MediaRecorder
  private readonly queue: UploadQueue
  private readonly sampler: LevelSampler
  private readonly opts: PhaseRecorderOptions
  private readonly now: () => number
  private writes: Promise<void> = Promise.resolve()
  private chunkCount = 0
  private activeMs = 0
  private runStart: number | null = null
  private stopRequested = false
  private stopReason: string | undefined
  private finishing: Promise<PhaseRecordingResult> | null = null
  private graceTimer: ReturnType<typeof setTimeout> | undefined
  private settle!: { resolve: (r: PhaseRecordingResult) => void; reject: (e: unknown) => void }

  // ended settles when the recording is over, whether by stop() or not, with
  // the result once it is safely stored (rejects with a RecorderError when
  // the stop could not be stored; resumePendingUploads fixes that next load).
  readonly ended: Promise<PhaseRecordingResult>

  private constructor(opts: PhaseRecorderOptions, mr: MediaRecorder, row: store.RecordingRow) {
    this.opts = opts
    this.mr = mr
    this.queue = opts.queue
    this.recordingId = row.id
    this.mimeType = row.mimeType
    this.attemptId = row.attemptId
    this.phase = row.phase
    this.now = opts.now ?? (() => performance.now())
    this.sampler = new LevelSampler(opts.stream, { now: this.now })
    this.ended = new Promise((resolve, reject) => (this.settle = { resolve, reject }))
    this.ended.catch(() => undefined) // reported through onError too
  }

  // start creates the recording row, then starts MediaRecorder. It resolves
  // once recording has begun.
  static async start(opts: PhaseRecorderOptions): Promise<PhaseRecorder> {
    const picked = opts.mimeType ?? pickMimeType()
    if (picked === null || typeof MediaRecorder === 'undefined') throw new RecorderError('recorder', recorderMessages.unsupported)
    const mr = makeMediaRecorder(opts.stream, picked, opts.audioBitsPerSecond ?? DEFAULT_AUDIO_BITS_PER_SECOND)
    const mimeType = mr.mimeType || picked || 'audio/webm'
    // Without local storage the take is held in memory (store.ts): recording
    // never depends on the browser's storage alone.
    const row = await store.addRecording({ attemptId: opts.attemptId, phase: opts.phase, mimeType })
    const rec = new PhaseRecorder(opts, mr, row)
    live.add(rec.recordingId)
    rec.listen()
    try {
      mr.start(opts.timesliceMs ?? DEFAULT_TIMESLICE_MS)
    } catch (err) {
      rec.unlisten()
      live.delete(rec.recordingId)
      await store.markStopped(rec.recordingId, { durationMs: 0, levels: [] }).catch(() => undefined)
      throw new RecorderError('recorder', recorderMessages.recorder, err)
    }
    rec.runStart = rec.now()
    rec.sampler.start()
    return rec
  }

  get state(): PhaseRecorderState {
    if (this.finishing || this.stopRequested) return 'stopped'
    return this.runStart === null ? 'paused' : 'recording'
  }

  // durationMs is the recorded time so far (pauses excluded).
  get durationMs(): number {
    return Math.round(this.activeMs + (this.runStart === null ? 0 : this.now() - this.runStart))
  }

  get chunks(): number {
    return this.chunkCount
  }

  // pause and resume are for entrenamiento, where a phase may be paused.
  pause() {
    if (this.state !== 'recording' || this.mr.state !== 'recording') return
    this.mr.pause()
    this.activeMs += this.now() - (this.runStart ?? this.now())
    this.runStart = null
    this.sampler.pause()
  }

  resume() {
    if (this.state !== 'paused' || this.mr.state !== 'paused') return
    this.mr.resume()
    this.runStart = this.now()
    this.sampler.resume()
  }

  // stop ends the take: MediaRecorder emits its last blob, which is stored;
  // the recording is marked stopped with its duration and levels; the queue
  // is told to finish it. Calling it again returns the same promise.
  stop(): Promise<PhaseRecordingResult> {
    if (!this.stopRequested && !this.finishing) {
      this.stopRequested = true
      this.freezeClock()
      if (this.mr.state === 'inactive') {
        void this.finish()
      } else {
        try {
          this.mr.stop() // dataavailable (the last blob), then stop
          this.graceTimer = setTimeout(() => void this.finish(), STOP_GRACE_MS)
        } catch {
          void this.finish()
        }
      }
    }
    return this.ended
  }

  private freezeClock() {
    if (this.runStart !== null) {
      this.activeMs += this.now() - this.runStart
      this.runStart = null
    }
  }

  // finish runs once, after the last blob: persist the stop and kick the queue.
  private finish(): Promise<PhaseRecordingResult> {
    if (this.finishing) return this.finishing
    clearTimeout(this.graceTimer)
    const interrupted = !this.stopRequested
    this.freezeClock()
    const levels = this.sampler.stop()
    this.unlisten()
    const durationMs = Math.round(this.activeMs)
    this.finishing = (async () => {
      await this.writes
      await withRetries(() => store.markStopped(this.recordingId, { durationMs, levels }))
      live.delete(this.recordingId)
      this.queue.kick()
      const result: PhaseRecordingResult = { recordingId: this.recordingId, chunks: this.chunkCount, durationMs }
      if (this.stopReason) result.stopReason = this.stopReason
      return result
    })()
    this.finishing.then(
      (r) => {
        this.settle.resolve(r)
        if (interrupted) this.opts.onInterrupted?.(r)
      },
      (e) => {
        const err = new RecorderError('storage', recorderMessages.storage, e)
        this.settle.reject(err)
        this.opts.onError?.(err)
      },
    )
    return this.finishing
  }

  // --- MediaRecorder and page events ---

  private listen() {
    this.mr.addEventListener('dataavailable', this.onData)
    this.mr.addEventListener('stop', this.onStop)
    this.mr.addEventListener('error', this.onRecorderError)
    if (typeof window !== 'undefined') window.addEventListener('pagehide', this.onHide)
    if (typeof document !== 'undefined') document.addEventListener('visibilitychange', this.onVisibility)
  }

  private unlisten() {
    // dataavailable stays: a late blob after stop() must still be stored.
    this.mr.removeEventListener('stop', this.onStop)
    this.mr.removeEventListener('error', this.onRecorderError)
    if (typeof window !== 'undefined') window.removeEventListener('pagehide', this.onHide)
    if (typeof document !== 'undefined') document.removeEventListener('visibilitychange', this.onVisibility)
  }

  private onData = (e: Event) => {
    const data = (e as BlobEvent).data
    if (!data || data.size === 0) return
    for (let at = 0; at < data.size; at += MAX_CHUNK_BYTES) {
      const piece = data.size <= MAX_CHUNK_BYTES ? data : data.slice(at, at + MAX_CHUNK_BYTES, data.type)
      this.persist(piece)
    }
  }

  // persist appends blobs strictly in arrival order (seqs follow the audio).
  // The store falls back to memory by itself; a blob it still cannot keep
  // (memory full) stops the take with the reason, never silently.
  private persist(blob: Blob) {
    this.writes = this.writes.then(async () => {
      if (this.stopReason) return // the take is stopping: nothing after the gap may follow it
      try {
        await store.appendChunk(this.recordingId, blob, { durationMs: this.durationMs, levels: this.sampler.levels })
        this.chunkCount++
        this.queue.kick()
      } catch (e) {
        this.cannotKeep(e)
      }
    })
  }

  private cannotKeep(e: unknown) {
    const full = e instanceof store.MemoryFullError
    if (this.stopRequested || this.finishing) {
      // Only the last blob of a take already stopping was lost: say so.
      this.opts.onError?.(new RecorderError('storage', full ? recorderMessages.memoryFull : recorderMessages.storage, e))
      return
    }
    this.stopReason = full ? recorderMessages.memoryFull : recorderMessages.stoppedStorage
    this.queue.kick()
    try {
      this.mr.stop() // its stop event finishes the take (reported as interrupted)
      this.graceTimer = setTimeout(() => void this.finish(), STOP_GRACE_MS)
    } catch {
      void this.finish()
    }
  }

  private onStop = () => {
    void this.finish()
  }

  private onRecorderError = (e: Event) => {
    const cause = (e as Event & { error?: unknown }).error
    this.opts.onError?.(new RecorderError('recorder', recorderMessages.recorder, cause))
  }

  // The page is going away (or to the background, where mobile browsers may
  // kill it): ask for the partial chunk now so it is stored.
  private onHide = () => {
    if (this.mr.state === 'recording') {
      try {
        this.mr.requestData()
      } catch {
        // inactive already
      }
    }
  }

  private onVisibility = () => {
    if (document.visibilityState === 'hidden') this.onHide()
  }
}

function makeMediaRecorder(stream: MediaStream, mimeType: string, audioBitsPerSecond: number): MediaRecorder {
  try {
    return new MediaRecorder(stream, mimeType ? { mimeType, audioBitsPerSecond } : { audioBitsPerSecond })
  } catch {
    // Options the browser refuses: let it choose.
    return new MediaRecorder(stream)
  }
}

async function withRetries<T>(fn: () => Promise<T>, delays = [100, 500, 2000]): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn()
    } catch (e) {
      if (i >= delays.length) throw e
      await new Promise((r) => setTimeout(r, delays[i]))
    }
  }
}

export interface ResumeResult {
  interrupted: string[] // recordings the page died in, now stopped with what they had
  pending: number // recordings not yet completed on the server
}

// resumePendingUploads is for page load (or entering an attempt): recordings
// left unstopped because the page died are stopped with the chunks they have
// (nextSeq) and their last known duration and levels, and the queue uploads
// and completes everything pending. Await queue.flush() to know when it is done.
export async function resumePendingUploads(attemptId: string, queue: UploadQueue): Promise<ResumeResult> {
  const recs = await store.listRecordings(attemptId)
  const interrupted: string[] = []
  for (const r of recs) {
    if (r.stopped || live.has(r.id)) continue
    await store.markStopped(r.id, { durationMs: r.durationMs, levels: r.levels })
    interrupted.push(r.id)
  }
  queue.kick()
  return { interrupted, pending: recs.filter((r) => !r.completed).length }
}
