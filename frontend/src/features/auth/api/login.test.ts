import { afterEach, describe, expect, it, vi } from 'vitest'
import { login } from './login'

describe('login', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    localStorage.clear()
  })

  it("keeps the account's device token and sends it with the next sign-in of that account only", async () => {
    const f = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ user: null, device: 'tok-ana' }), { status: 200 })))
    const sent = () => JSON.parse(f.mock.calls.at(-1)?.[1]?.body as string) as Record<string, unknown>

    await login({ email: 'Ana@utpl.edu.ec', password: 'x' })
    expect(sent().device).toBeUndefined()
    await login({ email: 'ana@utpl.edu.ec', password: 'x' })
    expect(sent().device).toBe('tok-ana')
    await login({ email: 'otra@utpl.edu.ec', password: 'x' })
    expect(sent().device).toBeUndefined()
  })
})
