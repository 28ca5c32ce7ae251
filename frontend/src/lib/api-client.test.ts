import { afterEach, describe, expect, it, vi } from 'vitest'
import { api, ApiError } from './api-client'

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
