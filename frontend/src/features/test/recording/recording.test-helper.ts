// Helpers for the recording engine's unit tests (never imported by app code).
import { IDBFactory } from 'fake-indexeddb'
import { Blob as NodeBlob } from 'node:buffer'
import { vi } from 'vitest'
import { closeStore } from './store'

// useNodeBlob makes `Blob` Node's own. fake-indexeddb stores values with
// Node's structuredClone, which keeps Node Blobs but turns jsdom's Blob into
// an empty object; a browser's IndexedDB keeps its own Blobs, so this only
// aligns the test realm with what a browser does.
export function useNodeBlob() {
  vi.stubGlobal('Blob', NodeBlob)
}

// freshStore gives every test an empty IndexedDB.
export async function freshStore() {
  await closeStore()
  globalThis.indexedDB = new IDBFactory()
}

export const blob = (text: string, type = 'audio/webm') => new Blob([text], { type })

// tick waits one real macrotask (IndexedDB work in fake-indexeddb runs on
// setImmediate, which the tests never fake).
export const tick = () => new Promise<void>((r) => setImmediate(r))

// until waits for a condition to hold, polling in real macrotasks (not
// timers, which some tests fake) for up to timeoutMs of real time: hashing
// and Blob reads complete off the main thread.
export async function until(cond: () => boolean | Promise<boolean>, what = 'condition', timeoutMs = 5000) {
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if (await cond()) return
    await tick()
  }
  throw new Error(`timed out waiting for ${what}`)
}

export interface SeenRequest {
  method: string
  path: string
  headers: Record<string, string> // lower-case names, as HTTP has them
  body: unknown // parsed JSON, or the Blob's text for chunks
}

type Handler = (req: SeenRequest, n: number) => Response | Promise<Response> | undefined | Promise<undefined>

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

export const apiError = (status: number, code: string, message = 'error', details?: unknown) =>
  json(status, { error: { code, message, details } })

// fakeServer replaces fetch with an in-memory model of the recordings API:
// idempotent chunks (same seq and content: 200, other content: 409
// chunk_conflict) and a complete call that checks every chunk is there. A
// handler may answer a request first (return a Response) or throw.
export function fakeServer(handler?: Handler) {
  const requests: SeenRequest[] = []
  const chunks = new Map<string, Map<number, string>>() // rid -> seq -> content
  const completed = new Map<string, unknown>()
  const state = { inflight: 0, maxInflight: 0 }
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    state.inflight++
    state.maxInflight = Math.max(state.maxInflight, state.inflight)
    try {
      await tick()
      const url = new URL(String(input), 'http://localhost')
      const raw = init?.body
      let body: unknown = undefined
      if (raw instanceof Blob) body = await raw.text()
      else if (typeof raw === 'string') body = JSON.parse(raw)
      const req: SeenRequest = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        headers: Object.fromEntries(new Headers(init?.headers)),
        body,
      }
      requests.push(req)
      if (init?.signal?.aborted) throw new DOMException('aborted', 'AbortError')
      const custom = await handler?.(req, requests.length)
      if (custom) return custom
      const m = req.path.match(/^\/api\/attempts\/([^/]+)\/recordings\/([^/]+)(?:\/(chunks)\/(\d+)|\/(complete))?$/)
      if (!m) return apiError(404, 'not_found')
      const rid = m[2]
      if (m[3] && req.method === 'PUT') {
        const seq = Number(m[4])
        const have = chunks.get(rid) ?? new Map<number, string>()
        chunks.set(rid, have)
        const prior = have.get(seq)
        if (prior !== undefined && prior !== body) return apiError(409, 'chunk_conflict', 'El fragmento no coincide')
        have.set(seq, body as string)
        return json(200, { seq, bytes: (body as string).length })
      }
      if (m[5] && req.method === 'POST') {
        const n = (req.body as { chunks: number }).chunks
        const have = chunks.get(rid) ?? new Map()
        const missing = Array.from({ length: n }, (_, i) => i).filter((i) => !have.has(i))
        if (missing.length) return apiError(409, 'chunks_missing', 'Faltan fragmentos', { missing })
        completed.set(rid, req.body)
        return json(200, { id: rid, complete: true })
      }
      if (req.method === 'PUT') return json(200, { id: rid, ...(req.body as object), chunks: 0, complete: false })
      return apiError(404, 'not_found')
    } finally {
      state.inflight--
    }
  })
  return { requests, chunks, completed, state, spy }
}
