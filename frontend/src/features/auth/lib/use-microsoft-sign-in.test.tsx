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

// configArrives: the configuration is not in the page (behind Firebase
// Hosting) and GET /api/config answers only once it resolves.
function renderAt(created: boolean, configArrives?: Promise<void>) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input)
    if (url.endsWith('/api/config')) {
      await configArrives
      return new Response(JSON.stringify(config), { status: 200 })
    }
    const body = url.endsWith('/start') ? { nonce: 'n' } : { user, access: { test: false, admin: false }, created }
    return new Response(JSON.stringify(body), { status: 200 })
  })
  const client = new QueryClient()
  if (!configArrives) client.setQueryData(['config'], config)
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

  it('waits for a configuration still on its way instead of calling the sign-in not configured', async () => {
    let arrive: () => void = () => undefined
    renderAt(true, new Promise<void>((r) => (arrive = r)))
    act(() => probe.start())
    await new Promise((r) => setTimeout(r, 20))
    expect(document.querySelector('.swal2-popup')).toBeNull()
    expect(screen.getByTestId('where')).toHaveTextContent('/login')
    arrive()
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/auth/carreras'))
    expect(document.querySelector('.swal2-popup')).toBeNull()
  })
})
