import { openDB, type DBSchema, type IDBPDatabase } from 'idb'

// Local persistence of recordings: every chunk MediaRecorder produces is
// written here before anything tries to upload it, and is deleted only after
// the server acknowledged it. A reload, a crash or a network drop therefore
// never loses audio: the next page load finds the chunks and uploads them.

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
}

export interface ChunkRow {
  recordingId: string
  seq: number
  blob: Blob
  attemptId: string
  bytes: number
}

interface RecordingDB extends DBSchema {
  recordings: { key: string; value: RecordingRow; indexes: { attemptId: string } }
  chunks: { key: [string, number]; value: ChunkRow; indexes: { attemptId: string } }
}

export const DB_NAME = 'simulador-grabaciones'
const DB_VERSION = 1

let dbPromise: Promise<IDBPDatabase<RecordingDB>> | null = null

function db(): Promise<IDBPDatabase<RecordingDB>> {
  if (!dbPromise) {
    const opening = openDB<RecordingDB>(DB_NAME, DB_VERSION, {
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
    dbPromise = opening
    // A failed open (private mode, storage disabled) is retried next time.
    opening.catch(() => {
      if (dbPromise === opening) dbPromise = null
    })
  }
  return dbPromise
}

// closeStore closes the connection (tests use it between fresh databases).
export async function closeStore() {
  const p = dbPromise
  dbPromise = null
  if (p) (await p.catch(() => null))?.close()
}

// storageAvailable tells whether IndexedDB can be used on this page. Without
// it a reload would lose what was not uploaded yet.
export async function storageAvailable(): Promise<boolean> {
  try {
    await db()
    return true
  } catch {
    return false
  }
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
  await (await db()).add('recordings', row)
  return row
}

export async function getRecording(id: string): Promise<RecordingRow | undefined> {
  return (await db()).get('recordings', id)
}

export async function updateRecording(id: string, patch: Partial<Pick<RecordingRow, 'mimeType' | 'durationMs' | 'levels'>>) {
  const tx = (await db()).transaction('recordings', 'readwrite')
  const row = await tx.store.get(id)
  if (!row) {
    await tx.done
    throw new Error(`recording ${id} not found`)
  }
  await tx.store.put({ ...row, ...patch })
  await tx.done
}

export interface Progress {
  durationMs: number
  levels: number[]
}

// appendChunk stores the next chunk of a recording and returns it with its
// seq. The seq is taken from the recording row in the same transaction, so
// seqs are contiguous and nextSeq always equals the number of chunks written.
// progress (recorded time and levels so far) lets a recording interrupted by
// a reload be completed with what it had.
export async function appendChunk(recordingId: string, blob: Blob, progress?: Progress): Promise<ChunkRow> {
  const tx = (await db()).transaction(['recordings', 'chunks'], 'readwrite')
  const recs = tx.objectStore('recordings')
  const row = await recs.get(recordingId)
  if (!row || row.stopped) {
    await tx.done
    throw new Error(`recording ${recordingId} ${row ? 'is stopped' : 'not found'}`)
  }
  const chunk: ChunkRow = { recordingId, seq: row.nextSeq, blob, attemptId: row.attemptId, bytes: blob.size }
  await tx.objectStore('chunks').add(chunk)
  await recs.put({ ...row, nextSeq: row.nextSeq + 1, ...(progress ?? {}) })
  await tx.done
  return chunk
}

// markStopped records that no more chunks will come (a no-op when it already was).
export async function markStopped(recordingId: string, final: Progress): Promise<RecordingRow> {
  const tx = (await db()).transaction('recordings', 'readwrite')
  const row = await tx.store.get(recordingId)
  if (!row) {
    await tx.done
    throw new Error(`recording ${recordingId} not found`)
  }
  if (row.stopped) {
    await tx.done
    return row
  }
  const next = { ...row, stopped: true, durationMs: final.durationMs, levels: final.levels }
  await tx.store.put(next)
  await tx.done
  return next
}

export async function markCompleted(recordingId: string) {
  const tx = (await db()).transaction('recordings', 'readwrite')
  const row = await tx.store.get(recordingId)
  if (row && !row.completed) await tx.store.put({ ...row, completed: true })
  await tx.done
}

// listRecordings returns an attempt's recordings, oldest first.
export async function listRecordings(attemptId: string): Promise<RecordingRow[]> {
  const rows = await (await db()).getAllFromIndex('recordings', 'attemptId', attemptId)
  return rows.sort(byCreation)
}

// listStoppedIncomplete returns the recordings that still need the complete call.
export async function listStoppedIncomplete(attemptId: string): Promise<RecordingRow[]> {
  return (await listRecordings(attemptId)).filter((r) => r.stopped && !r.completed)
}

// listPendingChunks returns the chunks of an attempt not yet acknowledged, in
// upload order: recordings oldest first, then seq.
export async function listPendingChunks(attemptId: string): Promise<ChunkRow[]> {
  const d = await db()
  const tx = d.transaction(['recordings', 'chunks'], 'readonly')
  const [recs, chunks] = await Promise.all([
    tx.objectStore('recordings').index('attemptId').getAll(attemptId),
    tx.objectStore('chunks').index('attemptId').getAll(attemptId),
  ])
  await tx.done
  const order = new Map(recs.sort(byCreation).map((r, i) => [r.id, i]))
  const rank = (c: ChunkRow) => order.get(c.recordingId) ?? Number.MAX_SAFE_INTEGER
  return chunks.sort((a, b) => rank(a) - rank(b) || a.recordingId.localeCompare(b.recordingId) || a.seq - b.seq)
}

// deleteChunk forgets a chunk the server acknowledged.
export async function deleteChunk(recordingId: string, seq: number) {
  await (await db()).delete('chunks', [recordingId, seq])
}

// deleteRecording removes a take and its chunks. Only for a take the server
// refused for good (see UploadQueue): it drops audio that was never uploaded.
export async function deleteRecording(recordingId: string) {
  const tx = (await db()).transaction(['recordings', 'chunks'], 'readwrite')
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
  const d = await db()
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
  const rows = await (await db()).getAll('recordings')
  return [...new Set(rows.filter((r) => !r.completed).map((r) => r.attemptId))]
}

function byCreation(a: RecordingRow, b: RecordingRow) {
  return a.createdAt - b.createdAt || a.id.localeCompare(b.id)
}
