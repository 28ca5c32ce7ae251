import { afterEach, describe, expect, it, vi } from 'vitest'
import { api, ApiError, setStaleSessionHandler } from './api-client'

function mockFetch(status: number, body: unknown) {
  return vi.spyOn(globalThis, 'fetch').mockResolvedValue(
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
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/json')
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
    expect((init?.headers as Record<string, string>)['Content-Type']).toBeUndefined()
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
