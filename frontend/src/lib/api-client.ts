// The one way the browser talks to the server: same-origin JSON with the
// session cookie. Errors carry the server's code and Spanish message.

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details: unknown

  constructor(status: number, code: string, message: string, details?: unknown) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.details = details
  }
}

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

async function request<T>(method: string, path: string, body?: Body, init?: RequestInit): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  let payload: BodyInit | undefined
  if (body instanceof FormData || body instanceof Blob) {
    payload = body
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  let res: Response
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', ...init })
  } catch {
    throw new ApiError(0, 'network', 'No se pudo conectar con el servidor. Revise su conexión e intente de nuevo.')
  }
  if (res.status === 204) return undefined as T
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
    const body = (data as { error?: { code?: string; message?: string; details?: unknown } } | undefined)?.error
    const err = new ApiError(res.status, body?.code ?? 'error', body?.message ?? 'Ocurrió un error inesperado. Intente de nuevo.', body?.details)
    if (onStaleSession && sessionIsStale(path, err)) onStaleSession(err)
    throw err
  }
  return data as T
}

export const api = {
  get: <T>(path: string, init?: RequestInit) => request<T>('GET', path, undefined, init),
  post: <T>(path: string, body?: Body, init?: RequestInit) => request<T>('POST', path, body, init),
  put: <T>(path: string, body?: Body, init?: RequestInit) => request<T>('PUT', path, body, init),
  patch: <T>(path: string, body?: Body, init?: RequestInit) => request<T>('PATCH', path, body, init),
  delete: <T>(path: string, init?: RequestInit) => request<T>('DELETE', path, undefined, init),
}
