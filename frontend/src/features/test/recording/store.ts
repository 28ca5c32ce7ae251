import { openDB, type DBSchema, type IDBPDatabase } from 'idb'

// Local persistence of recordings: every chunk MediaRecorder produces is
// written here before anything tries to upload it, and is deleted only after
// the server acknowledged it. A reload, a crash or a network drop therefore
// never loses audio: the next page load finds the chunks and uploads them.
//
// Chunks are stored as bytes (an ArrayBuffer with its MIME type beside it),
// not as Blobs: some browsers refuse Blobs in IndexedDB (Safari's engine in a
// private window, and at times in a normal one) while storing the same bytes
// fine. Rows written as Blobs by earlier builds are still read.
//
// When IndexedDB refuses a write anyway (full disk, blocked storage, a
// private window, no IndexedDB at all), the recording is kept in this page's
// memory instead and uploaded from there in the same order, with the same
// retries and completion. Such a recording survives a network drop while the
// page stays open, but not a reload; the upload status says so. The memory is
// bounded (MEMORY_LIMIT_BYTES): past it, appendChunk throws MemoryFullError
// and the recorder stops the take with a message.

export interface RecordingRow {
  id: string // client UUID, also the server's recording id
  attemptId: string
  phase: number // index into the attempt's phases
  mimeType: string
  nextSeq: number // chunks written so far (the next chunk's seq)
  stopped: boolean // no more chunks will come
  durationMs: number // recorded time (updated as chunks arrive, final on stop)
  levels: number[] // audio level 0..1 every 200 ms
  completed: boolean // the server accepted the complete call
  createdAt: number // ms since epoch; orders the parts of a phase
  volatile?: boolean // held in this page's memory only (never stored in IndexedDB)
}

export interface ChunkRow {
  recordingId: string
  seq: number
  data?: ArrayBuffer // the chunk's bytes (every row this build writes)
  type?: string // the bytes' MIME type
  blob?: Blob // rows written by builds that stored Blobs
  attemptId: string
  bytes: number
  volatile?: boolean // held in this page's memory only
}

// chunkBody is a chunk's content as a Blob of its type, whichever shape it
// was stored in.
export function chunkBody(c: ChunkRow): Blob {
  if (c.blob) return c.blob
  return new Blob([c.data ?? new ArrayBuffer(0)], { type: c.type ?? '' })
}

interface RecordingDB extends DBSchema {
  recordings: { key: string; value: RecordingRow; indexes: { attemptId: string } }
  chunks: { key: [string, number]; value: ChunkRow; indexes: { attemptId: string } }
}

export const DB_NAME = 'simulador-grabaciones'
const DB_VERSION = 1

// About 70 minutes of speech at 64 kb/s: far more than an attempt records
// while offline, small enough for a phone's tab.
export const MEMORY_LIMIT_BYTES = 32 * 1024 * 1024
let memoryLimit = MEMORY_LIMIT_BYTES

// setMemoryLimit changes the bound (tests reach it without 32 MB of audio).
export function setMemoryLimit(bytes = MEMORY_LIMIT_BYTES) {
  memoryLimit = bytes
}

export class MemoryFullError extends Error {
  constructor() {
    super('recording memory limit reached')
    this.name = 'MemoryFullError'
  }
}

// RecordingStateError: the write makes no sense for the recording (unknown,
// or already stopped). It is a caller's mistake, never a storage failure,
// so it never moves a recording to memory.
export class RecordingStateError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RecordingStateError'
  }
}

let dbPromise: Promise<IDBPDatabase<RecordingDB>> | null = null

// An open request can stay pending for good: another tab holds an older
// version and does not let go, or WebKit left an earlier page's open
// unfinished. Past this deadline the store works as without IndexedDB (in
// memory, and the page says a reload could lose the take), and it tries to
// open again on the next use: a take never waits for storage to start.
// It is generous because a loaded machine can be slow to open a database.
const OPEN_DEADLINE_MS = 10_000
let openDeadline = OPEN_DEADLINE_MS

// setOpenDeadline changes the deadline (tests reach it quickly).
export function setOpenDeadline(ms = OPEN_DEADLINE_MS) {
  openDeadline = ms
}

// withinDeadline settles as opening does, or fails at the deadline; a
// database that opens after that is closed at once.
function withinDeadline(opening: Promise<IDBPDatabase<RecordingDB>>): Promise<IDBPDatabase<RecordingDB>> {
  return new Promise((resolve, reject) => {
    let late = false
    const timer = setTimeout(() => {
      late = true
      reject(new Error('IndexedDB did not open in time'))
    }, openDeadline)
    opening.then(
      (d) => {
        clearTimeout(timer)
        if (late) d.close()
        else resolve(d)
      },
      (e) => {
        clearTimeout(timer)
        reject(e)
      },
    )
  })
}

function db(): Promise<IDBPDatabase<RecordingDB>> {
  if (!dbPromise) {
    let opening: Promise<IDBPDatabase<RecordingDB>>
    try {
      opening = openDB<RecordingDB>(DB_NAME, DB_VERSION, {
        upgrade(d) {
          const recs = d.createObjectStore('recordings', { keyPath: 'id' })
          recs.createIndex('attemptId', 'attemptId')
          const chunks = d.createObjectStore('chunks', { keyPath: ['recordingId', 'seq'] })
          chunks.createIndex('attemptId', 'attemptId')
        },
        // Another tab upgraded the schema: let it, and reopen on next use.
        blocking() {
          void opening.then((d) => d.close())
          dbPromise = null
        },
        terminated() {
          dbPromise = null
        },
      })
    } catch (e) {
      // No IndexedDB at all (openDB throws synchronously).
      return Promise.reject(e)
    }
    const opened = withinDeadline(opening)
    dbPromise = opened
    // A failed or late open (private mode, storage disabled, a request left
    // pending) is retried next time.
    opened.catch(() => {
      if (dbPromise === opened) dbPromise = null
    })
  }
  return dbPromise
}

// openedDB is the database, or null where it cannot be opened (no
// IndexedDB, storage disabled): then nothing can have been stored in it, and
// reads see only what memory holds.
async function openedDB(): Promise<IDBPDatabase<RecordingDB> | null> {
  try {
    return await db()
  } catch {
    return null
  }
}

// closeStore closes the connection and forgets what memory holds (tests use
// it between fresh databases).
export async function closeStore() {
  const p = dbPromise
  dbPromise = null
  memory.recordings.clear()
  memory.chunks.clear()
  memory.bytes = 0
  memory.completed.clear()
  memory.acked.clear()
  memory.attempts.clear()
  known.clear()
  if (p) (await p.catch(() => null))?.close()
}

// storageAvailable tells whether IndexedDB can be used on this page. Without
// it a reload would lose what was not uploaded yet.
export async function storageAvailable(): Promise<boolean> {
  return (await openedDB()) !== null
}

// --- memory: what IndexedDB refused ---

const memory = {
  recordings: new Map<string, RecordingRow>(), // takes held in memory, until completed
  chunks: new Map<string, Map<number, ChunkRow>>(), // recordingId -> seq -> chunk, until acknowledged
  bytes: 0,
  completed: new Set<string>(), // completed takes whose IndexedDB row could not be updated
  acked: new Set<string>(), // acknowledged chunks IndexedDB could not delete (chunkKey)
  attempts: new Set<string>(), // attempts that had a take held in memory in this page
}

// known: the latest row of each take written in this page, so a take whose
// IndexedDB write fails continues in memory with the right seq.
const known = new Map<string, RecordingRow>()

const chunkKey = (recordingId: string, seq: number) => `${recordingId}\u0000${seq}`

// moveToMemory continues a take of this page in memory; false when the take
// is unknown here (then the caller reports the storage error).
function moveToMemory(recordingId: string): boolean {
  if (memory.recordings.has(recordingId)) return true
  const row = known.get(recordingId)
  if (!row) return false
  memory.recordings.set(recordingId, { ...row, volatile: true })
  memory.attempts.add(row.attemptId)
  return true
}

// heldInMemory tells whether some take of the attempt was kept in memory in
// this page (IndexedDB refused it): a reload may lose what is not uploaded.
export function heldInMemory(attemptId: string): boolean {
  return memory.attempts.has(attemptId)
}

// memoryBytes is how much audio memory holds (tests, diagnostics).
export function memoryBytes(): number {
  return memory.bytes
}

let persistAsked = false
let lastCreatedAt = 0

// askPersistence asks the browser not to evict our storage under pressure
// (best effort; browsers may ignore it).
function askPersistence() {
  if (persistAsked) return
  persistAsked = true
  try {
    void navigator.storage?.persist?.().catch(() => undefined)
  } catch {
    // not available
  }
}

export interface NewRecording {
  id?: string
  attemptId: string
  phase: number
  mimeType: string
}

// addRecording creates a take in IndexedDB, or in memory where IndexedDB
// refuses it (the row then says volatile).
export async function addRecording(input: NewRecording): Promise<RecordingRow> {
  askPersistence()
  const row: RecordingRow = {
    id: input.id ?? crypto.randomUUID(),
    attemptId: input.attemptId,
    phase: input.phase,
    mimeType: input.mimeType,
    nextSeq: 0,
    stopped: false,
    durationMs: 0,
    levels: [],
    completed: false,
    // Strictly increasing, so parts made in the same millisecond keep their order.
    createdAt: (lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1)),
  }
  known.set(row.id, row)
  try {
    await (await db()).add('recordings', row)
    return row
  } catch (e) {
    console.warn(`recording store: IndexedDB refused take ${row.id}; keeping it in memory`, e)
    moveToMemory(row.id)
    return { ...row, volatile: true }
  }
}

export async function getRecording(id: string): Promise<RecordingRow | undefined> {
  const held = memory.recordings.get(id)
  if (held) return { ...held }
  const d = await openedDB()
  const row = d ? await d.get('recordings', id) : undefined
  return row && memory.completed.has(id) ? { ...row, completed: true } : row
}

export interface Progress {
  durationMs: number
  levels: number[]
}

// appendChunk stores the next chunk of a recording and returns it with its
// seq. The seq is taken from the recording row in the same transaction, so
// seqs are contiguous and nextSeq always equals the number of chunks written.
// progress (recorded time and levels so far) lets a recording interrupted by
// a reload be completed with what it had. Where IndexedDB refuses the write,
// the take goes on in memory (see above); past the memory bound it throws
// MemoryFullError.
export async function appendChunk(recordingId: string, blob: Blob, progress?: Progress): Promise<ChunkRow> {
  // Read before any transaction: a transaction closes while awaiting other work.
  const data = await blob.arrayBuffer()
  const type = blob.type
  if (!memory.recordings.has(recordingId)) {
    try {
      return await appendStored(recordingId, data, type, progress)
    } catch (e) {
      if (e instanceof RecordingStateError || !moveToMemory(recordingId)) throw e
      console.warn(`recording store: IndexedDB refused a chunk of take ${recordingId}; keeping the take in memory`, e)
    }
  }
  return appendHeld(recordingId, data, type, progress)
}

async function appendStored(recordingId: string, data: ArrayBuffer, type: string, progress?: Progress): Promise<ChunkRow> {
  const tx = (await db()).transaction(['recordings', 'chunks'], 'readwrite')
  const recs = tx.objectStore('recordings')
  const row = await recs.get(recordingId)
  if (!row || row.stopped) {
    await tx.done
    throw new RecordingStateError(`recording ${recordingId} ${row ? 'is stopped' : 'not found'}`)
  }
  const chunk: ChunkRow = { recordingId, seq: row.nextSeq, data, type, attemptId: row.attemptId, bytes: data.byteLength }
  const next = { ...row, nextSeq: row.nextSeq + 1, ...(progress ?? {}) }
  await tx.objectStore('chunks').add(chunk)
  await recs.put(next)
  await tx.done
  known.set(recordingId, next)
  return chunk
}

function appendHeld(recordingId: string, data: ArrayBuffer, type: string, progress?: Progress): ChunkRow {
  const row = memory.recordings.get(recordingId)
  if (!row || row.stopped) throw new RecordingStateError(`recording ${recordingId} ${row ? 'is stopped' : 'not found'}`)
  if (memory.bytes + data.byteLength > memoryLimit) throw new MemoryFullError()
  const chunk: ChunkRow = { recordingId, seq: row.nextSeq, data, type, attemptId: row.attemptId, bytes: data.byteLength, volatile: true }
  const list = memory.chunks.get(recordingId) ?? new Map<number, ChunkRow>()
  list.set(chunk.seq, chunk)
  memory.chunks.set(recordingId, list)
  memory.bytes += chunk.bytes
  const next = { ...row, nextSeq: row.nextSeq + 1, ...(progress ?? {}) }
  memory.recordings.set(recordingId, next)
  known.set(recordingId, next)
  return chunk
}

// markStopped records that no more chunks will come (a no-op when it already was).
export async function markStopped(recordingId: string, final: Progress): Promise<RecordingRow> {
  if (!memory.recordings.has(recordingId)) {
    try {
      return await markStoppedStored(recordingId, final)
    } catch (e) {
      if (e instanceof RecordingStateError || !moveToMemory(recordingId)) throw e
    }
  }
  const row = memory.recordings.get(recordingId)!
  if (row.stopped) return { ...row }
  const next = { ...row, stopped: true, durationMs: final.durationMs, levels: final.levels }
  memory.recordings.set(recordingId, next)
  known.set(recordingId, next)
  return { ...next }
}

async function markStoppedStored(recordingId: string, final: Progress): Promise<RecordingRow> {
  const tx = (await db()).transaction('recordings', 'readwrite')
  const row = await tx.store.get(recordingId)
  if (!row) {
    await tx.done
    throw new RecordingStateError(`recording ${recordingId} not found`)
  }
  if (row.stopped) {
    await tx.done
    return row
  }
  const next = { ...row, stopped: true, durationMs: final.durationMs, levels: final.levels }
  await tx.store.put(next)
  await tx.done
  known.set(recordingId, next)
  return next
}

// markCompleted records the server's acceptance of the complete call. A take
// held in memory leaves memory (its stored row, if any, is removed so a
// later page load does not complete it again); a stored row that cannot be
// updated is remembered as completed for this page.
export async function markCompleted(recordingId: string) {
  known.delete(recordingId)
  if (memory.recordings.delete(recordingId)) {
    memory.completed.add(recordingId)
    const d = await openedDB()
    await d?.delete('recordings', recordingId).catch(() => undefined)
    return
  }
  try {
    const tx = (await db()).transaction('recordings', 'readwrite')
    const row = await tx.store.get(recordingId)
    if (row && !row.completed) await tx.store.put({ ...row, completed: true })
    await tx.done
  } catch {
    memory.completed.add(recordingId)
  }
}

// --- reading: IndexedDB and memory together ---

export interface Snapshot {
  recordings: RecordingRow[] // oldest first
  chunks: ChunkRow[] // not yet acknowledged, in upload order
  storageError: unknown // IndexedDB could not be read: only memory is listed
}

// snapshot lists an attempt's recordings and pending chunks from both places,
// in upload order: recordings oldest first, then seq. When IndexedDB cannot
// be read, it lists what memory holds and says so, so that audio held in
// memory is never stuck behind a storage failure.
export async function snapshot(attemptId: string): Promise<Snapshot> {
  let stored: { recordings: RecordingRow[]; chunks: ChunkRow[] } = { recordings: [], chunks: [] }
  let storageError: unknown = null
  try {
    stored = await readStored(attemptId)
  } catch (e) {
    storageError = e ?? new Error('IndexedDB read failed')
  }
  const recs = new Map(stored.recordings.map((r) => [r.id, memory.completed.has(r.id) ? { ...r, completed: true } : r]))
  for (const r of memory.recordings.values()) if (r.attemptId === attemptId) recs.set(r.id, { ...r, volatile: true })
  const recordings = [...recs.values()].sort(byCreation)
  const chunks = stored.chunks.filter((c) => !memory.acked.has(chunkKey(c.recordingId, c.seq)))
  for (const list of memory.chunks.values()) for (const c of list.values()) if (c.attemptId === attemptId) chunks.push(c)
  const order = new Map(recordings.map((r, i) => [r.id, i]))
  const rank = (c: ChunkRow) => order.get(c.recordingId) ?? Number.MAX_SAFE_INTEGER
  chunks.sort((a, b) => rank(a) - rank(b) || a.recordingId.localeCompare(b.recordingId) || a.seq - b.seq)
  return { recordings, chunks, storageError }
}

async function readStored(attemptId: string) {
  const d = await openedDB()
  if (!d) return { recordings: [], chunks: [] }
  const tx = d.transaction(['recordings', 'chunks'], 'readonly')
  const [recordings, chunks] = await Promise.all([
    tx.objectStore('recordings').index('attemptId').getAll(attemptId),
    tx.objectStore('chunks').index('attemptId').getAll(attemptId),
  ])
  await tx.done
  return { recordings, chunks }
}

async function readOrThrow(attemptId: string): Promise<Snapshot> {
  const s = await snapshot(attemptId)
  if (s.storageError) throw s.storageError
  return s
}

// listRecordings returns an attempt's recordings, oldest first.
export async function listRecordings(attemptId: string): Promise<RecordingRow[]> {
  return (await readOrThrow(attemptId)).recordings
}

// listStoppedIncomplete returns the recordings that still need the complete call.
export async function listStoppedIncomplete(attemptId: string): Promise<RecordingRow[]> {
  return (await listRecordings(attemptId)).filter((r) => r.stopped && !r.completed)
}

// listPendingChunks returns the chunks of an attempt not yet acknowledged, in
// upload order: recordings oldest first, then seq.
export async function listPendingChunks(attemptId: string): Promise<ChunkRow[]> {
  return (await readOrThrow(attemptId)).chunks
}

// deleteChunk forgets a chunk the server acknowledged.
export async function deleteChunk(recordingId: string, seq: number) {
  const held = memory.chunks.get(recordingId)
  const chunk = held?.get(seq)
  if (held && chunk) {
    held.delete(seq)
    memory.bytes -= chunk.bytes
    if (held.size === 0) memory.chunks.delete(recordingId)
    return
  }
  try {
    await (await db()).delete('chunks', [recordingId, seq])
  } catch {
    // Not sent again in this page; a later page load may re-send it, which
    // the server accepts as the same chunk.
    memory.acked.add(chunkKey(recordingId, seq))
  }
}

function forgetHeld(recordingId: string) {
  for (const c of memory.chunks.get(recordingId)?.values() ?? []) memory.bytes -= c.bytes
  memory.chunks.delete(recordingId)
  memory.recordings.delete(recordingId)
  known.delete(recordingId)
}

// deleteRecording removes a take and its chunks. Only for a take the server
// refused for good (see UploadQueue): it drops audio that was never uploaded.
export async function deleteRecording(recordingId: string) {
  forgetHeld(recordingId)
  const d = await openedDB()
  if (!d) return
  const tx = d.transaction(['recordings', 'chunks'], 'readwrite')
  await Promise.all([
    tx.objectStore('chunks').delete(IDBKeyRange.bound([recordingId, -Infinity], [recordingId, Infinity])),
    tx.objectStore('recordings').delete(recordingId),
  ])
  await tx.done
}

// deleteAttemptData removes everything kept for an attempt. Only for an
// explicit decision (e.g. the attempt no longer exists on the server and the
// student chose to discard it): it drops audio that was never uploaded.
export async function deleteAttemptData(attemptId: string) {
  for (const r of [...memory.recordings.values()]) if (r.attemptId === attemptId) forgetHeld(r.id)
  const d = await openedDB()
  if (!d) return
  const tx = d.transaction(['recordings', 'chunks'], 'readwrite')
  const chunkKeys = await tx.objectStore('chunks').index('attemptId').getAllKeys(attemptId)
  const recKeys = await tx.objectStore('recordings').index('attemptId').getAllKeys(attemptId)
  await Promise.all([
    ...chunkKeys.map((k) => tx.objectStore('chunks').delete(k)),
    ...recKeys.map((k) => tx.objectStore('recordings').delete(k)),
  ])
  await tx.done
}

// pendingAttemptIds lists the attempts with something not yet on the server
// (to resume uploads from any page, e.g. after the attempt was left).
export async function pendingAttemptIds(): Promise<string[]> {
  const d = await openedDB()
  const rows = d ? await d.getAll('recordings') : []
  const ids = rows.filter((r) => !r.completed && !memory.completed.has(r.id)).map((r) => r.attemptId)
  for (const r of memory.recordings.values()) ids.push(r.attemptId)
  return [...new Set(ids)]
}

function byCreation(a: RecordingRow, b: RecordingRow) {
  return a.createdAt - b.createdAt || a.id.localeCompare(b.id)
}
