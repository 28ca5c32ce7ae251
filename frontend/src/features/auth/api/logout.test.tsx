import { renderHook, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sessionQueryKey, type Session } from './get-session'
import { useLogout } from './logout'
import { registerMsalClear } from './msal-cache'

const member: Session = {
  user: { id: 'u', mail: 'a@utpl.edu.ec', displayName: 'A', givenName: 'A', surname: '', photoUrl: '', role: 'estudiante' },
  access: { test: true, admin: false },
}

function setup(status = 204) {
  const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response(null, { status }))
  const client = new QueryClient()
  client.setQueryData(sessionQueryKey, member)
  client.setQueryData(['attempts', 'mine'], [{ id: 'a1' }])
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>
  const { result } = renderHook(() => useLogout(), { wrapper })
  return { client, fetch, logout: result }
}

// What MSAL 5 leaves in sessionStorage after a popup sign-in (keys shortened).
function msalKeys() {
  sessionStorage.setItem('msal.3.token.keys.client-id', '{"idToken":["k1"],"accessToken":["k2"]}')
  sessionStorage.setItem(
    'msal.3|uid.utid|login.microsoftonline.com|accesstoken|client-id|tenant|mail.send user.read',
    '{"secret":"graph-token"}',
  )
  sessionStorage.setItem('msal.3|uid.utid|login.microsoftonline.com|idtoken|client-id|tenant|', '{"secret":"id-token"}')
  sessionStorage.setItem('msal.version', '5.29.0')
}

describe('useLogout (docs/product.md, Public pages and sign-in)', () => {
  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
  })
  afterEach(() => vi.restoreAllMocks())

  it('revokes the session, clears local storage and MSAL’s tokens, and forgets the user’s data', async () => {
    const { client, fetch, logout } = setup()
    localStorage.setItem('dato', 'x')
    msalKeys()
    sessionStorage.setItem('otra.cosa', 'se queda')
    const settled = vi.fn()
    logout.current.mutate(undefined, { onSettled: settled })
    await waitFor(() => expect(settled).toHaveBeenCalled())
    expect(fetch.mock.calls[0][0]).toBe('/api/auth/logout')
    expect(localStorage.length).toBe(0)
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('msal.'))).toEqual([])
    expect(sessionStorage.getItem('otra.cosa')).toBe('se queda')
    expect(client.getQueryData(sessionQueryKey)).toEqual({ user: null, access: { test: false, admin: false } })
    expect(client.getQueryData(['attempts', 'mine'])).toBeUndefined()
  })

  it('lets a loaded MSAL client clear its cache before the caller moves on, once', async () => {
    const { logout } = setup()
    msalKeys()
    const order: string[] = []
    const clear = vi.fn(async () => {
      order.push('msal')
    })
    registerMsalClear(clear)
    logout.current.mutate(undefined, { onSettled: () => order.push('caller') })
    await waitFor(() => expect(order).toEqual(['msal', 'caller']))
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('msal.'))).toEqual([])

    // The client was dropped: a second sign-out does not call it again.
    const again = vi.fn()
    logout.current.mutate(undefined, { onSettled: again })
    await waitFor(() => expect(again).toHaveBeenCalled())
    expect(clear).toHaveBeenCalledTimes(1)
  })

  it('clears everything even when the server cannot be reached or MSAL fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { client, logout } = setup(500)
    localStorage.setItem('dato', 'x')
    msalKeys()
    registerMsalClear(async () => {
      throw new Error('msal broke')
    })
    const settled = vi.fn()
    logout.current.mutate(undefined, { onSettled: settled })
    await waitFor(() => expect(settled).toHaveBeenCalled())
    expect(localStorage.length).toBe(0)
    expect(Object.keys(sessionStorage).filter((k) => k.startsWith('msal.'))).toEqual([])
    expect(client.getQueryData<Session>(sessionQueryKey)?.user).toBeNull()
  })
})
