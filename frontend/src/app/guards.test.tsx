import { render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Session } from '@/features/auth/api/get-session'
import { GuestOnly, RequireProfile, RequireTest, RequireTutor } from './guards'

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>
}

function renderAt(path: string, session: Session | Error) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
    session instanceof Error ? new Response('{}', { status: 500 }) : new Response(JSON.stringify(session), { status: 200 }),
  )
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/inicio" element={<Where />} />
          <Route element={<GuestOnly />}>
            <Route path="/login" element={<Where />} />
          </Route>
          <Route path="/auth/*" element={<RequireProfile />}>
            <Route path="*" element={<Where />} />
          </Route>
          <Route path="/test/*" element={<RequireTest />}>
            <Route path="*" element={<Where />} />
          </Route>
          <Route path="/admin/*" element={<RequireTutor />}>
            <Route path="*" element={<Where />} />
          </Route>
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

const user = { id: 'u', mail: 'a@utpl.edu.ec', displayName: 'A', givenName: 'A', surname: '', photoUrl: '', role: 'estudiante' as const }
const guest: Session = { user: null, access: { test: false, admin: false } }
const student: Session = { user, access: { test: false, admin: false } }
const member: Session = { user, access: { test: true, admin: false } }
const tutor: Session = { user: { ...user, role: 'tutor' }, access: { test: true, admin: true } }

describe('route guards (docs/product.md, Roles and sections)', () => {
  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
    vi.spyOn(console, 'error').mockImplementation(() => {})
  })
  afterEach(() => vi.restoreAllMocks())

  const cases: [string, Session | Error, string][] = [
    ['/auth/carreras', guest, '/inicio'],
    ['/auth/carreras', student, '/auth/carreras'],
    ['/auth/carreras', new Error('lookup failed'), '/inicio'],
    ['/test', guest, '/inicio'],
    ['/test', student, '/auth/carreras'],
    ['/test', member, '/test'],
    ['/test', tutor, '/test'],
    ['/admin', student, '/auth/carreras'],
    ['/admin', member, '/auth/carreras'],
    ['/admin', tutor, '/admin'],
    ['/login', guest, '/login'],
    ['/login', student, '/auth/carreras'],
  ]
  for (const [path, session, want] of cases) {
    const who =
      session instanceof Error
        ? 'failed lookup'
        : session === guest
          ? 'guest'
          : session === tutor
            ? 'tutor'
            : session === member
              ? 'member'
              : 'student'
    it(`${who} at ${path} ends at ${want}`, async () => {
      renderAt(path, session)
      // The login page shows at once; a signed-in user is moved on once the session is known.
      await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(want))
    })
  }

  it('a guest on a guarded route has local storage cleared and the location saved', async () => {
    localStorage.setItem('x', '1')
    renderAt('/admin/grupo', guest)
    expect(await screen.findByTestId('where')).toHaveTextContent('/inicio')
    expect(localStorage.length).toBe(0)
    expect(sessionStorage.getItem('simulador.redirect')).toBe('/admin/grupo')
  })
})
