import { afterEach, describe, expect, it, vi } from 'vitest'
import { api, ApiError, busyDelay, busyRetryLimitMs, parseRetryAfter, setStaleSessionHandler } from './api-client'
import { serverBusyWaiting, subscribeServerBusy } from './server-busy'

function mockFetch(status: number, body: unknown) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(
      new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
    )
}

describe('api client', () => {
  afterEach(() => vi.restoreAllMocks())

  it('sends JSON with the session cookie and returns the body', async () => {
    const f = mockFetch(200, { ok: true })
    await expect(api.post('/api/x', { a: 1 })).resolves.toEqual({ ok: true })
    const [, init] = f.mock.calls[0]
    expect(init?.credentials).toBe('same-origin')
    expect(init?.body).toBe('{"a":1}')
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json')
  })

  it('turns error responses into ApiError with the server code and message', async () => {
    mockFetch(409, { error: { code: 'students_already_in_group', message: 'Los estudiantes ya están en el grupo' } })
    const err = await api.post('/api/x').catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 409, code: 'students_already_in_group', message: 'Los estudiantes ya están en el grupo' })
  })

  it('explains a network failure in Spanish', async () => {
    vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'))
    const err = (await api.get('/api/x').catch((e: unknown) => e)) as ApiError
    expect(err).toMatchObject({ status: 0, code: 'network' })
    expect(err.message).toMatch(/No se pudo conectar/)
  })

  it('sends FormData untouched (the browser sets the boundary)', async () => {
    const f = mockFetch(204, undefined)
    const form = new FormData()
    form.append('file', new Blob(['a']), 'g.csv')
    await api.post('/api/x', form)
    const [, init] = f.mock.calls[0]
    expect(init?.body).toBe(form)
    expect(new Headers(init?.headers).get('Content-Type')).toBeNull()
  })

  it('keeps its own headers when the caller passes more', async () => {
    const f = mockFetch(200, {})
    const ctl = new AbortController()
    await api.post('/api/x', { a: 1 }, { headers: { 'X-Extra': '1' }, signal: ctl.signal })
    const [, init] = f.mock.calls[0]
    const headers = new Headers(init?.headers)
    expect(headers.get('Content-Type')).toBe('application/json')
    expect(headers.get('Accept')).toBe('application/json')
    expect(headers.get('X-Extra')).toBe('1')
    expect(init?.signal).toBe(ctl.signal)
    expect(init?.method).toBe('POST')
  })

  it('fetches bytes with blob, and reports a refusal as an ApiError to the stale-session handler', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(
      new Response('audio-bytes', { status: 200, headers: { 'Content-Type': 'audio/webm' } }),
    )
    const blob = await api.blob('/api/attempts/a/recordings/r/media')
    expect(blob.type).toBe('audio/webm')
    expect(await blob.text()).toBe('audio-bytes')

    const stale = vi.fn()
    const remove = setStaleSessionHandler(stale)
    mockFetch(401, { error: { code: 'unauthenticated', message: 'Inicie sesión' } })
    const err = await api.blob('/api/attempts/a/recordings/r/media').catch((e: unknown) => e)
    remove()
    expect(err).toMatchObject({ status: 401, code: 'unauthenticated' })
    expect(stale).toHaveBeenCalledOnce()
  })
})

describe('stale session handler', () => {
  afterEach(() => vi.restoreAllMocks())

  const cases: [string, string, number, string, boolean][] = [
    ['a 401 from a signed-in endpoint', '/api/me/attempts', 401, 'unauthenticated', true],
    ['a 401 from an endpoint with a query string', '/api/admin/grading?estado=pendiente', 401, 'unauthenticated', true],
    ['a 403 no_active_group from /test data', '/api/exam/overview', 403, 'no_active_group', true],
    ['wrong credentials at sign-in', '/api/auth/login', 401, 'invalid_credentials', false],
    ['a rejected Microsoft token', '/api/auth/microsoft', 401, 'microsoft_rejected', false],
    ['the session endpoint itself', '/api/session', 401, 'unauthenticated', false],
    ['another 403', '/api/admin/group', 403, 'forbidden', false],
    ['a tutor without an active group (404)', '/api/admin/group/students', 404, 'no_active_group', false],
  ]
  for (const [name, path, status, code, stale] of cases) {
    it(`${name}: ${stale ? 'calls' : 'does not call'} the handler`, async () => {
      mockFetch(status, { error: { code, message: 'x' } })
      const handler = vi.fn()
      const remove = setStaleSessionHandler(handler)
      try {
        const err = await api.get(path).catch((e: unknown) => e)
        expect(err).toMatchObject({ status, code })
        expect(handler).toHaveBeenCalledTimes(stale ? 1 : 0)
      } finally {
        remove()
      }
    })
  }

  it('is removed by the function it returns', async () => {
    mockFetch(401, { error: { code: 'unauthenticated', message: 'Debe iniciar sesión.' } })
    const handler = vi.fn()
    setStaleSessionHandler(handler)()
    await api.get('/api/me/attempts').catch(() => {})
    expect(handler).not.toHaveBeenCalled()
  })
})

describe('busy server', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    vi.useRealTimers()
  })

  const busy = (status: number, code: string, retryAfter?: string) =>
    new Response(JSON.stringify({ error: { code, message: 'El servidor está ocupado.' } }), {
      status,
      headers: { 'Content-Type': 'application/json', ...(retryAfter ? { 'Retry-After': retryAfter } : {}) },
    })

  it('sends a request refused with 503 again after Retry-After, showing the busy notice meanwhile', async () => {
    vi.useFakeTimers()
    vi.spyOn(Math, 'random').mockReturnValue(0) // no jitter
    const f = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(busy(503, 'server_busy', '2'))
      .mockResolvedValueOnce(new Response(JSON.stringify({ ok: true }), { status: 200 }))
    const seen: number[] = []
    const stop = subscribeServerBusy(() => seen.push(serverBusyWaiting()))
    const p = api.put('/api/attempts/a/notes', { notes: 'x' })
    await vi.advanceTimersByTimeAsync(1999)
    expect(f).toHaveBeenCalledTimes(1)
    expect(serverBusyWaiting()).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    await expect(p).resolves.toEqual({ ok: true })
    expect(f).toHaveBeenCalledTimes(2)
    expect(f.mock.calls[1][1]?.body).toBe('{"notes":"x"}')
    expect(serverBusyWaiting()).toBe(0)
    expect(seen).toEqual([1, 0])
    stop()
  })

  it('waits for a sign-in refused with 429 server_busy, but not for other refusals', async () => {
    vi.useFakeTimers()
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const f = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(busy(429, 'server_busy', '3'))
      .mockResolvedValueOnce(new Response(JSON.stringify({ user: null }), { status: 200 }))
    const p = api.post('/api/auth/login', { email: 'a@utpl.edu.ec', password: 'x' })
    await vi.advanceTimersByTimeAsync(3000)
    await expect(p).resolves.toEqual({ user: null })
    expect(f).toHaveBeenCalledTimes(2)

    // Too many failed attempts: the user must read the message, not wait.
    f.mockResolvedValueOnce(busy(429, 'too_many_attempts', '30'))
    const err = await api.post('/api/auth/login', {}).catch((e: unknown) => e)
    expect(err).toMatchObject({ status: 429, code: 'too_many_attempts', retryAfterMs: 30_000 })
    expect(f).toHaveBeenCalledTimes(3)
  })

  it('gives up after two minutes of refusals, and at once when told not to retry', async () => {
    vi.useFakeTimers()
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const f = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => busy(503, 'server_busy', '30'))
    const p = api.get('/api/x').catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(busyRetryLimitMs)
    expect(await p).toMatchObject({ status: 503, code: 'server_busy' })
    expect(f.mock.calls.length).toBe(5) // at 0, 30, 60, 90 and 120 s; the next would pass two minutes
    expect(serverBusyWaiting()).toBe(0)

    f.mockClear()
    const once = await api.get('/api/x', undefined, { retryBusy: false }).catch((e: unknown) => e)
    expect(once).toMatchObject({ status: 503, retryAfterMs: 30_000 })
    expect(f).toHaveBeenCalledTimes(1)
  })

  it('stops waiting when the request is aborted', async () => {
    vi.useFakeTimers()
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => busy(503, 'server_busy', '10'))
    const ctl = new AbortController()
    const p = api.get('/api/x', { signal: ctl.signal }).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(100)
    ctl.abort(new DOMException('aborted', 'AbortError'))
    expect(await p).toBeInstanceOf(DOMException)
    expect(serverBusyWaiting()).toBe(0)
  })

  it('spreads the retries: Retry-After plus up to half of it, between 1 and 60 s', () => {
    expect(busyDelay(4000, 1, () => 0)).toBe(4000)
    expect(busyDelay(4000, 1, () => 0.999999)).toBe(6000)
    expect(busyDelay(0, 1, () => 0)).toBe(1000)
    expect(busyDelay(undefined, 3, () => 0)).toBe(4000)
    expect(busyDelay(120_000, 1, () => 0.5)).toBe(60_000)
  })

  it('reads Retry-After in seconds or as a date', () => {
    expect(parseRetryAfter('5')).toBe(5000)
    expect(parseRetryAfter(null)).toBeUndefined()
    expect(parseRetryAfter('soon')).toBeUndefined()
    const inTen = new Date(Date.now() + 10_000).toUTCString()
    expect(parseRetryAfter(inTen)).toBeGreaterThan(8000)
  })
})
