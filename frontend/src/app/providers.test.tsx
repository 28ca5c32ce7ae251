import { render, screen, waitFor } from '@testing-library/react'
import { QueryClientProvider, useQuery } from '@tanstack/react-query'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Session } from '@/features/auth/api/get-session'
import { api } from '@/lib/api-client'
import { createQueryClient } from '@/lib/query-client'
import { RequireProfile, RequireTest } from './guards'
import { watchSession } from './providers'

const user = { id: 'u', mail: 'a@utpl.edu.ec', displayName: 'A', givenName: 'A', surname: '', photoUrl: '', role: 'estudiante' as const }
const member: Session = { user, access: { test: true, admin: false } }

// A page of the app that loads its data with the user's session.
function Page({ path }: { path: string }) {
  const q = useQuery({ queryKey: ['page', path], queryFn: () => api.get(path) })
  return (
    <p data-testid="where">
      {useLocation().pathname} {q.status}
    </p>
  )
}

// The server: the session is first `before`, then `after` (revoked,
// group finalized); `path` answers with `refusal`.
function serve(before: Session, after: Session, path: string, refusal: { status: number; code: string }) {
  let sessions = 0
  const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input)
    if (url === '/api/session') return new Response(JSON.stringify(sessions++ === 0 ? before : after), { status: 200 })
    if (url === path) return new Response(JSON.stringify({ error: { code: refusal.code, message: 'x' } }), { status: refusal.status })
    return new Response('{}', { status: 200 })
  })
  return { sessionCalls: () => fetch.mock.calls.filter(([u]) => String(u) === '/api/session').length }
}

function renderApp(at: string) {
  const client = createQueryClient()
  const stop = watchSession(client)
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        <Routes>
          <Route path="/inicio" element={<p data-testid="where">/inicio</p>} />
          <Route path="/auth/carreras" element={<p data-testid="where">/auth/carreras</p>} />
          <Route path="/auth/*" element={<RequireProfile />}>
            <Route path="historial" element={<Page path="/api/me/attempts" />} />
          </Route>
          <Route path="/test/*" element={<RequireTest />}>
            <Route path="*" element={<Page path="/api/exam/overview" />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  )
  return stop
}

describe('a stale session is refreshed and the guards act on it', () => {
  let stop = () => {}
  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
  })
  afterEach(() => {
    stop()
    vi.restoreAllMocks()
  })

  it('a 401 (session revoked) sends the user to /inicio with local storage cleared', async () => {
    const server = serve(member, { user: null, access: { test: false, admin: false } }, '/api/me/attempts', {
      status: 401,
      code: 'unauthenticated',
    })
    localStorage.setItem('dato', 'x')
    stop = renderApp('/auth/historial')
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/inicio'))
    expect(localStorage.length).toBe(0)
    expect(server.sessionCalls()).toBe(2)
  })

  it('a 403 no_active_group on /test sends the student to /auth/carreras', async () => {
    const server = serve(member, { user, access: { test: false, admin: false } }, '/api/exam/overview', {
      status: 403,
      code: 'no_active_group',
    })
    stop = renderApp('/test')
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/auth/carreras'))
    expect(server.sessionCalls()).toBe(2)
  })

  it('another refusal leaves the session alone', async () => {
    const server = serve(member, member, '/api/exam/overview', { status: 403, code: 'forbidden' })
    stop = renderApp('/test')
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/test error'))
    expect(server.sessionCalls()).toBe(1)
  })
})
