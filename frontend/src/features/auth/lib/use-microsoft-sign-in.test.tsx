import { useEffect } from 'react'
import { act, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AppConfig } from '@/lib/config'
import { consumeRedirect, saveRedirect } from '@/lib/storage'
import { useMicrosoftSignIn } from './use-microsoft-sign-in'

// The popup itself is MSAL's; here it hands back an ID token at once.
vi.mock('../api/msal', () => ({ popupIdToken: vi.fn(async () => 'id-token') }))

const config: AppConfig = {
  site: {} as AppConfig['site'],
  microsoft: { enabled: true, clientId: 'c', authority: 'https://login.example/t', scopes: ['openid'] },
  mail: { enabled: false },
}

const user = { id: 'u', mail: 'a@utpl.edu.ec', displayName: 'A', givenName: 'A', surname: '', photoUrl: '', role: 'estudiante' }

// The hook's start, as the last render returned it.
const probe = { start: () => {} }
function Probe() {
  const { start } = useMicrosoftSignIn()
  useEffect(() => {
    probe.start = start
  })
  return <p data-testid="where">{useLocation().pathname}</p>
}

function renderAt(created: boolean) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const body = String(input).endsWith('/start') ? { nonce: 'n' } : { user, access: { test: false, admin: false }, created }
    return new Response(JSON.stringify(body), { status: 200 })
  })
  const client = new QueryClient()
  client.setQueryData(['config'], config)
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="*" element={<Probe />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

describe('useMicrosoftSignIn (docs/product.md, Public pages and sign-in)', () => {
  beforeEach(() => sessionStorage.clear())
  afterEach(() => vi.restoreAllMocks())

  it('sends a new user to /auth/carreras and drops the saved location', async () => {
    saveRedirect('/admin/grupo')
    renderAt(true)
    act(() => probe.start())
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/auth/carreras'))
    // A later sign-in in this tab must not find it.
    expect(consumeRedirect()).toBeNull()
  })

  it('sends a returning user to the saved location, once', async () => {
    saveRedirect('/auth/historial')
    renderAt(false)
    act(() => probe.start())
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/auth/historial'))
    expect(consumeRedirect()).toBeNull()
  })

  it('sends a returning user without a saved location to /auth/carreras', async () => {
    renderAt(false)
    act(() => probe.start())
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/auth/carreras'))
  })
})
