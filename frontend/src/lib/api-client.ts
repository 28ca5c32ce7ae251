// The one way the browser talks to the server: same-origin JSON with the
// session cookie. Errors carry the server's code and Spanish message. A
// request the server refuses as busy (503, or 429 server_busy) is sent again
// after its Retry-After, with jitter, while a calm notice says so.
import type { ErrorPayload } from '@/types/api'
import { sleep } from './retry'
import { beginBusyWait } from './server-busy'

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details: unknown
  // retryAfterMs is the server's Retry-After, when it asked to come back later.
  readonly retryAfterMs: number | undefined

  constructor(status: number, code: string, message: string, details?: unknown, retryAfterMs?: number) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.details = details
    this.retryAfterMs = retryAfterMs
  }
}

// parseRetryAfter reads a Retry-After header (seconds, or an HTTP date) in ms.
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined
  const secs = Number(value)
  if (value.trim() !== '' && Number.isFinite(secs) && secs >= 0) return secs * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now())
}

// isServerBusy: the server is overloaded for a moment (503, or 429
// server_busy while a sign-in waits for its turn). It did nothing with the
// request, which may be sent again as it was after Retry-After.
export function isServerBusy(err: unknown): err is ApiError {
  return err instanceof ApiError && (err.status === 503 || (err.status === 429 && err.code === 'server_busy'))
}

// busyDelay is how long to wait before sending a refused request again:
// the server's Retry-After (else 1 s, 2 s, 4 s… by attempt) plus up to
// half of it again at random, so that a classroom refused together does
// not come back together; never under 1 s nor over 60 s.
export function busyDelay(retryAfterMs: number | undefined, attempt: number, random: () => number = Math.random): number {
  const base = retryAfterMs ?? 1000 * 2 ** Math.max(0, attempt - 1)
  return Math.round(Math.min(60_000, Math.max(1000, base) * (1 + 0.5 * random())))
}

// A request refused as busy is sent again for up to this long before its
// caller sees the error.
export const busyRetryLimitMs = 120_000

// isNoActiveGroup: the server refused /test's data because the student is
// not (or no longer) in an active group.
export function isNoActiveGroup(err: unknown): err is ApiError {
  return err instanceof ApiError && err.status === 403 && err.code === 'no_active_group'
}

// A refusal that means the browser's picture of the session is out of date:
// the session ended (a 401 from any endpoint but the session and sign-in
// ones, where it means wrong credentials) or the student's group is no
// longer active. The app refreshes the session then, and the route guards
// take the user where docs/product.md, "Roles and sections", says.
function sessionIsStale(path: string, err: ApiError): boolean {
  const p = path.split('?')[0]
  if (err.status === 401) return p !== '/api/session' && !p.startsWith('/api/auth/')
  return isNoActiveGroup(err)
}

let onStaleSession: ((err: ApiError) => void) | null = null

// setStaleSessionHandler installs the one handler for stale sessions and
// returns a function that removes it.
export function setStaleSessionHandler(handler: (err: ApiError) => void) {
  onStaleSession = handler
  return () => {
    if (onStaleSession === handler) onStaleSession = null
  }
}

type Body = Record<string, unknown> | unknown[] | FormData | Blob | undefined

// Options of one call. retryBusy (default true) sends a request refused as
// busy again after the server's Retry-After, showing the calm notice of
// server-busy meanwhile; the recording uploader has its own queue and
// status, and turns it off.
export interface CallOptions {
  retryBusy?: boolean
}

// What a successful answer is read as: JSON (the API) or the bytes (media).
type Expect = 'json' | 'blob'

async function request<T>(
  method: string,
  path: string,
  body?: Body,
  init?: RequestInit,
  opts: CallOptions = {},
  expect: Expect = 'json',
): Promise<T> {
  const retryBusy = opts.retryBusy ?? true
  const started = Date.now()
  let endWait: (() => void) | null = null
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        return await requestOnce<T>(method, path, body, init, expect)
      } catch (err) {
        if (!retryBusy || !isServerBusy(err)) throw err
        const wait = busyDelay(err.retryAfterMs, attempt)
        if (Date.now() - started + wait > busyRetryLimitMs) throw err
        endWait ??= beginBusyWait()
        await sleep(wait, init?.signal ?? undefined)
      }
    }
  } finally {
    endWait?.()
  }
}

async function requestOnce<T>(method: string, path: string, body?: Body, init?: RequestInit, expect: Expect = 'json'): Promise<T> {
  // The caller's headers are merged into ours, never the other way round: a
  // caller's headers cannot drop the JSON Content-Type of a JSON body.
  const headers = new Headers(init?.headers)
  if (!headers.has('Accept')) headers.set('Accept', expect === 'json' ? 'application/json' : '*/*')
  let payload: BodyInit | undefined
  if (body instanceof FormData || body instanceof Blob) {
    payload = body
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json')
    payload = JSON.stringify(body)
  }
  let res: Response
  try {
    res = await fetch(path, { credentials: 'same-origin', ...init, method, headers, body: payload })
  } catch {
    throw new ApiError(0, 'network', 'No se pudo conectar con el servidor. Revise su conexión e intente de nuevo.')
  }
  if (res.status === 204) return undefined as T
  if (res.ok && expect === 'blob') return (await res.blob()) as T
  const text = await res.text()
  let data: unknown = undefined
  if (text) {
    try {
      data = JSON.parse(text)
    } catch {
      data = undefined
    }
  }
  if (!res.ok) {
    const body = (data as { error?: Partial<ErrorPayload> } | undefined)?.error
    const err = new ApiError(
      res.status,
      body?.code ?? 'error',
      body?.message ?? 'Ocurrió un error inesperado. Intente de nuevo.',
      body?.details,
      parseRetryAfter(res.headers.get('Retry-After')),
    )
    if (onStaleSession && sessionIsStale(path, err)) onStaleSession(err)
    throw err
  }
  return data as T
}

export const api = {
  get: <T>(path: string, init?: RequestInit, opts?: CallOptions) => request<T>('GET', path, undefined, init, opts),
  post: <T>(path: string, body?: Body, init?: RequestInit, opts?: CallOptions) => request<T>('POST', path, body, init, opts),
  put: <T>(path: string, body?: Body, init?: RequestInit, opts?: CallOptions) => request<T>('PUT', path, body, init, opts),
  patch: <T>(path: string, body?: Body, init?: RequestInit, opts?: CallOptions) => request<T>('PATCH', path, body, init, opts),
  delete: <T>(path: string, init?: RequestInit, opts?: CallOptions) => request<T>('DELETE', path, undefined, init, opts),
  // blob GETs bytes (a recording's media) with the same session, busy and
  // error handling as the JSON calls.
  blob: (path: string, init?: RequestInit, opts?: CallOptions) => request<Blob>('GET', path, undefined, init, opts, 'blob'),
}
