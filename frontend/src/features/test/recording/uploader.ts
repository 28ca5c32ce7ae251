import { useSyncExternalStore } from 'react'
import { api, ApiError, busyDelay } from '@/lib/api-client'
import type { CompleteRequest, PutRecordingRequest } from '@/types/api'
import * as store from './store'
import type { ChunkRow, RecordingRow } from './store'

// UploadQueue sends an attempt's recordings to the server from IndexedDB (or
// from memory, for takes IndexedDB refused; see store.ts), in order, one
// request at a time:
//   PUT  /api/attempts/:id/recordings/:rid              {phase, mimeType}   (once per recording)
//   PUT  /api/attempts/:id/recordings/:rid/chunks/:seq  raw bytes, X-Chunk-SHA256
//   POST /api/attempts/:id/recordings/:rid/complete     {chunks, durationMs, levels}
// A chunk leaves IndexedDB (or memory) only after the server acknowledged it (2xx).
// Network errors, timeouts, 408, 429 and 5xx are retried with exponential
// backoff and jitter; a 429 or 503 that says when to come back (Retry-After:
// the server is busy and did nothing) is retried after that time plus
// jitter, and the status says so calmly. Nothing is sent while the browser
// says it is offline.
// The one exception to keeping audio: a take whose registration the server
// refuses for good (its phase had not started, the tutor already graded the
// attempt, or the phase has as many takes as allowed) can never be uploaded,
// so it is dropped with a warning in the console instead of waiting forever;
// a take over the limit also says so in the status. A chunk refused for a
// limit (the recording's size, the student's storage) parks its recording
// like any other 409: nothing is retried in a loop.

export type UploadErrorKind =
  | 'transient' // network, timeout, 408, 429, 5xx: retried automatically
  | 'busy' // 429/503 with Retry-After: the server asked to come back later; retried then
  | 'storage' // IndexedDB could not be read: retried automatically (takes held in memory still go up)
  | 'conflict' // 409 chunk_conflict: a bug; the chunk is kept, the recording waits
  | 'missing' // 409 chunks_missing on complete: the server lacks chunks we no longer have
  | 'refused' // 409 phase_not_started / attempt_graded / too_many_takes on registering a take: dropped for good
  | 'rejected' // another 4xx on one recording (e.g. its phase is not recorded)
  | 'gone' // 404: the attempt is gone or not ours; the queue halts
  | 'auth' // 401/403: signed out; the queue halts until retry()

export interface UploadError {
  kind: UploadErrorKind
  message: string // Spanish, for the student
  status: number // HTTP status, 0 for a network failure
  code: string // the server's error code
  details?: unknown
  recordingId?: string
  seq?: number
  retrying: boolean // the queue keeps trying by itself
  retryAfterMs?: number // busy: the server's Retry-After
}

export interface UploadStatus {
  pendingChunks: number // chunks in IndexedDB or memory not yet acknowledged
  pendingBytes: number
  heldChunks: number // of those, the ones held in memory only (a reload loses them)
  direct: boolean // this browser refused to store a take of the attempt: takes are sent straight from memory
  pendingRecordings: number // stopped recordings still waiting for the complete call
  uploading: boolean // a request is in flight
  online: boolean // navigator.onLine
  lastError: UploadError | null // a retried error or a dropped take's notice: cleared by the next success
  halted: boolean // stopped by stop(), a 404 or a 401/403 (see retry())
}

export interface UploadQueueOptions {
  baseDelayMs?: number // first retry delay (1 s)
  maxDelayMs?: number // retry delay cap (30 s)
  requestTimeoutMs?: number // a request taking longer is aborted and retried (60 s)
  random?: () => number // jitter source, for tests
}

export class UploadStoppedError extends Error {
  constructor() {
    super('La subida de grabaciones se detuvo.')
    this.name = 'UploadStoppedError'
  }
}

const messages = {
  transient: 'No se pudo contactar al servidor. Las grabaciones están guardadas en este equipo y se reintentará automáticamente.',
  busy: 'El servidor está ocupado; sus grabaciones se guardan y se enviarán en unos segundos.',
  storage: 'No se pudo leer el almacenamiento local del navegador. Se reintentará automáticamente.',
  conflict:
    'Un fragmento de la grabación no coincide con el que ya recibió el servidor. La grabación se conserva en este equipo; informe este error al tutor o al soporte.',
  missing: 'Al servidor le faltan fragmentos de la grabación y no se pudo completar. Informe este error al tutor o al soporte.',
  gone: 'El intento ya no existe en el servidor o no tiene acceso a él. Las grabaciones pendientes se conservan en este equipo.',
  auth: 'Su sesión expiró. Inicie sesión de nuevo para terminar de subir las grabaciones; se conservan en este equipo.',
} as const

type Work =
  | { type: 'create'; rec: RecordingRow }
  | { type: 'chunk'; rec: RecordingRow; chunk: ChunkRow }
  | { type: 'complete'; rec: RecordingRow }
  | { type: 'empty'; rec: RecordingRow } // stopped with no audio: nothing to send

// The server's codes for a take it will never register.
const refusedForGood = new Set(['phase_not_started', 'attempt_graded', 'too_many_takes'])

const isOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false

export class UploadQueue {
  readonly attemptId: string
  private readonly base: string
  private readonly opts: Required<UploadQueueOptions>
  private status: UploadStatus
  private readonly listeners = new Set<(s: UploadStatus) => void>()
  private readonly created = new Set<string>() // recordings PUT in this session
  private readonly blocked = new Map<string, UploadError>() // recordings waiting for attention
  private haltError: UploadError | null = null
  private stopped = false
  private running: Promise<void> | null = null
  private dirty = false
  private failures = 0
  private wake: (() => void) | null = null
  private inflight: AbortController | null = null
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = []

  constructor(attemptId: string, options: UploadQueueOptions = {}) {
    this.attemptId = attemptId
    this.base = `/api/attempts/${encodeURIComponent(attemptId)}/recordings`
    this.opts = {
      baseDelayMs: options.baseDelayMs ?? 1000,
      maxDelayMs: options.maxDelayMs ?? 30_000,
      requestTimeoutMs: options.requestTimeoutMs ?? 60_000,
      random: options.random ?? Math.random,
    }
    this.status = {
      pendingChunks: 0,
      pendingBytes: 0,
      heldChunks: 0,
      direct: false,
      pendingRecordings: 0,
      uploading: false,
      online: isOnline(),
      lastError: null,
      halted: false,
    }
    if (typeof window !== 'undefined') {
      window.addEventListener('online', this.onOnline)
      window.addEventListener('offline', this.onOffline)
    }
  }

  // --- status stream ---

  getStatus = (): UploadStatus => this.status

  subscribe = (listener: (s: UploadStatus) => void): (() => void) => {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private setStatus(patch: Partial<UploadStatus>) {
    const next = { ...this.status, ...patch }
    if ((Object.keys(patch) as (keyof UploadStatus)[]).every((k) => Object.is(next[k], this.status[k]))) return
    this.status = next
    for (const l of this.listeners) l(next)
  }

  // --- control ---

  // kick tells the queue there may be new work (a new chunk, a stop).
  kick() {
    if (this.stopped) return
    void this.refreshCounts()
    if (this.haltError) return
    this.dirty = true
    if (!this.running) {
      this.running = this.runExclusive().finally(() => {
        this.running = null
        this.settleWaiters()
        // Work that arrived while the loop was finishing.
        if (this.dirty && !this.stopped && !this.haltError) this.kick()
      })
    }
  }

  // flush resolves when everything of the attempt in IndexedDB is on the
  // server (every chunk acknowledged, every stopped recording completed). It
  // waits through offline periods and retries; it rejects with an
  // UploadError when the queue halts or a recording needs attention, and with
  // UploadStoppedError after stop().
  flush(): Promise<void> {
    if (this.stopped) return Promise.reject(new UploadStoppedError())
    const p = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }))
    if (this.haltError) {
      this.settleWaiters()
      return p
    }
    this.kick()
    return p
  }

  // retry clears a halt (e.g. after signing in again) and the recordings
  // waiting for attention, and tries again at once.
  retry() {
    if (this.stopped) return
    this.haltError = null
    this.blocked.clear()
    this.failures = 0
    this.setStatus({ halted: false })
    this.wake?.()
    this.kick()
  }

  // stop ends the queue for good: the request in flight is aborted (the
  // server is idempotent, so it is simply re-sent by the next queue) and what
  // is pending stays in IndexedDB.
  stop() {
    if (this.stopped) return
    this.stopped = true
    if (typeof window !== 'undefined') {
      window.removeEventListener('online', this.onOnline)
      window.removeEventListener('offline', this.onOffline)
    }
    this.inflight?.abort()
    this.wake?.()
    this.setStatus({ halted: true, uploading: false })
    this.settleWaiters()
    if (queues.get(this.attemptId) === this) queues.delete(this.attemptId)
  }

  private onOnline = () => {
    this.setStatus({ online: true })
    this.failures = 0
    this.wake?.()
    this.kick()
  }

  private onOffline = () => this.setStatus({ online: false })

  private settleWaiters() {
    if (this.running && !this.stopped && !this.haltError) return
    const waiters = this.waiters
    if (waiters.length === 0) return
    let outcome: { ok: true } | { ok: false; error: unknown }
    if (this.stopped) outcome = { ok: false, error: new UploadStoppedError() }
    else if (this.haltError) outcome = { ok: false, error: this.haltError }
    else if (this.blocked.size > 0) outcome = { ok: false, error: this.blocked.values().next().value }
    else if (this.dirty)
      return // more work arrived; the next run settles them
    else outcome = { ok: true }
    this.waiters = []
    for (const w of waiters) {
      if (outcome.ok) w.resolve()
      else w.reject(outcome.error)
    }
  }

  // --- the loop ---

  // Only one uploader per attempt across tabs, where the browser has Web Locks.
  private runExclusive(): Promise<void> {
    const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined
    if (locks?.request) return locks.request(`recording-upload:${this.attemptId}`, () => this.loop()).then(() => undefined)
    return this.loop()
  }

  private async loop() {
    while (!this.stopped && !this.haltError) {
      if (!isOnline()) {
        this.setStatus({ online: false })
        await this.pause(null)
        continue
      }
      this.dirty = false
      let plan: Work[]
      try {
        plan = await this.plan()
      } catch (e) {
        await this.failed(this.classify(e))
        continue
      }
      if (plan.length === 0) {
        if (this.dirty) continue
        return
      }
      for (const work of plan) {
        if (this.stopped || this.haltError || !isOnline()) break
        try {
          await this.perform(work)
          this.failures = 0
          // A retried error is over; so is the notice of a dropped take once
          // another take goes up.
          const last = this.status.lastError
          if (last?.retrying || last?.kind === 'refused') this.setStatus({ lastError: null })
        } catch (e) {
          if (this.stopped) return
          const err = this.classify(e, work)
          if (err.kind === 'refused') {
            try {
              await this.drop(work.rec, err)
            } catch (storageError) {
              await this.failed(this.classify(storageError, work))
            }
          } else if (err.retrying) {
            await this.failed(err)
          } else if (err.kind === 'gone' || err.kind === 'auth') {
            this.haltError = err
            this.setStatus({ lastError: err, halted: true })
          } else {
            this.blocked.set(work.rec.id, err)
            this.setStatus({ lastError: err })
          }
          break // plan again: the state changed
        }
      }
    }
  }

  // plan lists what to send, in order, from IndexedDB and memory; it also
  // refreshes the pending counts. When IndexedDB cannot be read, what memory
  // holds is still sent (it would be lost by waiting), and the storage error
  // is reported once that is done.
  private async plan(): Promise<Work[]> {
    const { recordings: recs, chunks, storageError } = await store.snapshot(this.attemptId)
    const plan = this.planFrom(recs, chunks)
    if (storageError && plan.length === 0) throw storageError
    if (storageError) this.setStatus({ lastError: this.classify(storageError) })
    return plan
  }

  private planFrom(recs: RecordingRow[], chunks: ChunkRow[]): Work[] {
    const byRec = new Map<string, ChunkRow[]>()
    for (const c of chunks) {
      const list = byRec.get(c.recordingId)
      if (list) list.push(c)
      else byRec.set(c.recordingId, [c])
    }
    this.setCounts(recs, chunks)
    const plan: Work[] = []
    for (const rec of recs) {
      if (rec.completed || this.blocked.has(rec.id)) continue
      const cs = byRec.get(rec.id) ?? []
      if (rec.stopped && rec.nextSeq === 0) {
        plan.push({ type: 'empty', rec })
        continue
      }
      if (cs.length === 0 && !rec.stopped) continue
      if (!this.created.has(rec.id)) plan.push({ type: 'create', rec })
      for (const chunk of cs) plan.push({ type: 'chunk', rec, chunk })
      if (rec.stopped) plan.push({ type: 'complete', rec })
    }
    return plan
  }

  private async perform(work: Work) {
    const rec = work.rec
    const path = `${this.base}/${encodeURIComponent(rec.id)}`
    switch (work.type) {
      case 'create':
        await this.send((signal) =>
          api.put(path, { phase: rec.phase, mimeType: rec.mimeType } satisfies PutRecordingRequest, { signal }, noBusyRetry),
        )
        this.created.add(rec.id)
        return
      case 'chunk': {
        const { chunk } = work
        const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': 'application/octet-stream' }
        const body = store.chunkBody(chunk)
        const digest = await sha256Hex(body)
        if (digest) headers['X-Chunk-SHA256'] = digest
        await this.send((signal) => api.put(`${path}/chunks/${chunk.seq}`, body, { signal, headers }, noBusyRetry))
        await store.deleteChunk(rec.id, chunk.seq)
        void this.refreshCounts()
        return
      }
      case 'complete': {
        const body: CompleteRequest = { chunks: rec.nextSeq, durationMs: Math.round(rec.durationMs) }
        if (rec.levels.length > 0) body.levels = rec.levels
        await this.send((signal) => api.post(`${path}/complete`, body, { signal }, noBusyRetry))
        await store.markCompleted(rec.id)
        void this.refreshCounts()
        return
      }
      case 'empty':
        // Stopped before MediaRecorder produced any audio: nothing to upload.
        await store.markCompleted(rec.id)
        void this.refreshCounts()
        return
    }
  }

  // drop forgets a take the server will never accept.
  private async drop(rec: RecordingRow, err: UploadError) {
    console.warn(
      `recording upload: the server refused take ${rec.id} of phase ${rec.phase} for good (${err.code}: ${err.message}); dropping it`,
    )
    await store.deleteRecording(rec.id)
    this.created.delete(rec.id)
    // The student should know this part was not kept (the server's Spanish
    // message); the other refusals concern takes nobody expects to keep.
    if (err.code === 'too_many_takes') this.setStatus({ lastError: err })
    void this.refreshCounts()
  }

  private counting: Promise<void> | null = null
  private recount = false

  // refreshCounts re-reads the pending counts from IndexedDB, so the status
  // is right while offline, in backoff or halted too. One read at a time;
  // a request during a read runs one more.
  private refreshCounts(): Promise<void> {
    if (this.counting) {
      this.recount = true
      return this.counting
    }
    this.counting = (async () => {
      do {
        this.recount = false
        try {
          const { recordings, chunks } = await store.snapshot(this.attemptId)
          this.setCounts(recordings, chunks)
        } catch {
          // the loop reports storage errors
        }
      } while (this.recount)
    })().finally(() => {
      this.counting = null
    })
    return this.counting
  }

  private setCounts(recs: RecordingRow[], chunks: ChunkRow[]) {
    if (this.stopped) return
    this.setStatus({
      pendingChunks: chunks.length,
      pendingBytes: chunks.reduce((n, c) => n + c.bytes, 0),
      heldChunks: chunks.filter((c) => c.volatile).length,
      direct: store.heldInMemory(this.attemptId),
      pendingRecordings: recs.filter((r) => r.stopped && !r.completed).length,
    })
  }

  // send runs one request with a timeout; stop() aborts it.
  private async send<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const ctl = new AbortController()
    this.inflight = ctl
    const timer = setTimeout(() => ctl.abort(), this.opts.requestTimeoutMs)
    this.setStatus({ uploading: true })
    try {
      return await request(ctl.signal)
    } finally {
      clearTimeout(timer)
      if (this.inflight === ctl) this.inflight = null
      this.setStatus({ uploading: false })
    }
  }

  private classify(e: unknown, work?: Work): UploadError {
    const where = work ? { recordingId: work.rec.id, ...(work.type === 'chunk' ? { seq: work.chunk.seq } : {}) } : {}
    if (!(e instanceof ApiError)) {
      return { kind: 'storage', message: messages.storage, status: 0, code: 'storage', retrying: true, ...where }
    }
    const base = { status: e.status, code: e.code, details: e.details, ...where }
    const s = e.status
    if ((s === 429 || s === 503) && e.retryAfterMs !== undefined)
      return { ...base, kind: 'busy', message: messages.busy, retrying: true, retryAfterMs: e.retryAfterMs }
    if (s === 0 || s === 408 || s === 429 || s >= 500) return { ...base, kind: 'transient', message: messages.transient, retrying: true }
    if (s === 404) return { ...base, kind: 'gone', message: messages.gone, retrying: false }
    if (s === 401 || s === 403) return { ...base, kind: 'auth', message: messages.auth, retrying: false }
    if (s === 409 && e.code === 'chunk_conflict') return { ...base, kind: 'conflict', message: messages.conflict, retrying: false }
    if (s === 409 && e.code === 'chunks_missing') return { ...base, kind: 'missing', message: messages.missing, retrying: false }
    if (s === 409 && work?.type === 'create' && refusedForGood.has(e.code))
      return { ...base, kind: 'refused', message: e.message, retrying: false }
    return { ...base, kind: 'rejected', message: e.message, retrying: false }
  }

  private async failed(err: UploadError) {
    this.failures++
    this.setStatus({ lastError: err })
    await this.pause(err.kind === 'busy' ? busyDelay(err.retryAfterMs, this.failures, this.opts.random) : this.backoff(this.failures))
  }

  // backoff: 1 s, 2 s, 4 s … capped at 30 s, each with ±20 % jitter (never
  // above the cap), so many students reconnecting do not retry in step.
  backoff(failures: number): number {
    const { baseDelayMs, maxDelayMs, random } = this.opts
    const exp = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, failures - 1))
    return Math.round(Math.min(maxDelayMs, exp * (0.8 + 0.4 * random())))
  }

  // pause waits ms (or, with null, until woken); 'online', retry() and stop() wake it.
  private pause(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        if (this.wake === done) this.wake = null
        resolve()
      }
      const timer = ms === null ? undefined : setTimeout(done, ms)
      this.wake = done
    })
  }
}

// sha256Hex is the hex SHA-256 of a blob, or null where WebCrypto is missing.
export async function sha256Hex(blob: Blob): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle
  if (!subtle) return null
  const digest = await subtle.digest('SHA-256', new Uint8Array(await blob.arrayBuffer()))
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('')
}

// The queue retries by itself and says so in its own status line.
const noBusyRetry = { retryBusy: false }

const queues = new Map<string, UploadQueue>()

// getUploadQueue returns the page's one queue for an attempt (creating it),
// so remounts and several components share it and never upload twice.
export function getUploadQueue(attemptId: string, options?: UploadQueueOptions): UploadQueue {
  let q = queues.get(attemptId)
  if (!q) {
    q = new UploadQueue(attemptId, options)
    queues.set(attemptId, q)
  }
  return q
}

const idle: UploadStatus = {
  pendingChunks: 0,
  pendingBytes: 0,
  heldChunks: 0,
  direct: false,
  pendingRecordings: 0,
  uploading: false,
  online: true,
  lastError: null,
  halted: false,
}

const noop = () => () => {}

// useUploadStatus follows a queue's status (an idle status without a queue).
export function useUploadStatus(queue: UploadQueue | null | undefined): UploadStatus {
  return useSyncExternalStore(queue ? queue.subscribe : noop, queue ? queue.getStatus : () => idle, queue ? queue.getStatus : () => idle)
}
