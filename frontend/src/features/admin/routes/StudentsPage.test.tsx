import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderWithQuery } from '@/test/render'
import { describe, expect, it, vi } from 'vitest'
import { confirmAction, showError } from '@/lib/dialogs'
import type { Group, GroupWithMembers, Member } from '../api/types'
import { StudentsPage } from './StudentsPage'

// The dialogs are SweetAlert2's (src/lib/dialogs.test.ts); here it matters
// which one the page opens.
vi.mock('@/lib/dialogs', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/dialogs')>()),
  confirmAction: vi.fn(async () => false),
  showError: vi.fn(async () => undefined),
}))

const group: Group = {
  id: 'g1',
  carrera: 'derecho',
  carreraNombre: 'Derecho',
  departamento: '',
  facultad: '',
  modalidad: '',
  docente: { email: 'tutor@utpl.edu.ec' },
  estudiantes: [],
  status: 'activo',
  createdAt: '2026-03-01T10:00:00Z',
  finalizedAt: null,
}

function member(m: Partial<Member> & Pick<Member, 'email' | 'name' | 'signedIn'>): Member {
  return {
    lastSignInAt: null,
    addedAt: '2026-03-01T10:00:00Z',
    attempts: 0,
    finished: 0,
    lastActivity: null,
    lastScore: null,
    averageScore: null,
    trend: '',
    ...m,
  }
}

// configArrives: GET /api/config (with mail on) answers only once it
// resolves, as behind Firebase Hosting, where the page does not carry it.
function renderPage(data: GroupWithMembers, configArrives?: Promise<void>) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    if (String(input).endsWith('/api/config')) {
      await configArrives
      const config = { site: {}, microsoft: { enabled: false }, mail: { enabled: true } }
      return new Response(JSON.stringify(config), { status: 200 })
    }
    return new Response(JSON.stringify(data), { status: 200 })
  })
  renderWithQuery(<StudentsPage />, { router: '/' })
}

// cells returns the texts of the row holding text, in column order.
function cells(text: string) {
  const row = screen.getAllByRole('row').find((r) => r.textContent?.includes(text))
  if (!row) throw new Error(`no row with ${text}`)
  return within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent)
}

describe('StudentsPage', () => {
  it('tells who has signed in, when, and who has not yet', async () => {
    renderPage({
      group,
      infoUnavailable: false,
      students: [
        member({
          email: 'ana@utpl.edu.ec',
          name: 'Ana Pérez',
          userId: 'U-ANA',
          signedIn: true,
          lastSignInAt: '2026-03-02T15:30:00Z',
          attempts: 2,
        }),
        member({ email: 'luis@utpl.edu.ec', name: 'Luis Ruiz', signedIn: false }),
      ],
    })
    expect(await screen.findByRole('link', { name: 'Ana Pérez: ver intentos' })).toHaveAttribute('href', '/admin/estudiantes/U-ANA')
    // A student with a profile can have the password reset; one without cannot.
    expect(screen.getByRole('button', { name: 'Restablecer la contraseña de Ana Pérez' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Restablecer la contraseña de Luis Ruiz' })).not.toBeInTheDocument()
    const ana = cells('Ana Pérez')
    expect(ana[2]).toMatch(/^Sí, último ingreso: .*2026/)
    expect(ana[3]).toBe('2')
    expect(cells('Luis Ruiz')[2]).toBe('Aún no')
    expect(screen.queryByText(/No se pudo cargar la información/)).not.toBeInTheDocument()
  })

  it('shows the emails alone, with unknown values as "—", when the profiles could not be read', async () => {
    renderPage({
      group,
      infoUnavailable: true,
      students: [member({ email: 'ana@utpl.edu.ec', name: null, signedIn: null, attempts: 1 })],
    })
    expect(await screen.findByText(/No se pudo cargar la información de los estudiantes; se muestran solo sus correos/)).toBeInTheDocument()
    const ana = cells('ana@utpl.edu.ec')
    // Nombre and Ha ingresado are unknown: never "Aún no".
    expect(ana[0]).toBe('—')
    expect(ana[2]).toBe('—')
    expect(ana[3]).toBe('1')
    expect(screen.queryByText('Aún no')).not.toBeInTheDocument()
    // Without the profile its id is unknown: no link to the attempts (the
    // path names a student by id, never by address).
    expect(screen.queryByRole('link', { name: 'ana@utpl.edu.ec: ver intentos' })).not.toBeInTheDocument()
  })

  it('offers to remove each student, named in the button for screen readers', async () => {
    renderPage({
      group,
      infoUnavailable: false,
      students: [
        member({ email: 'ana@utpl.edu.ec', name: 'Ana Pérez', signedIn: true }),
        member({ email: 'luis@utpl.edu.ec', name: '', signedIn: false }),
      ],
    })
    expect(await screen.findByRole('button', { name: 'Quitar a Ana Pérez del grupo' })).toHaveTextContent('Quitar')
    expect(screen.getByRole('button', { name: 'Quitar a luis@utpl.edu.ec del grupo' })).toBeInTheDocument()
  })

  it('a reset pressed before the configuration has arrived waits for it, and offers to e-mail the link', async () => {
    let arrive: () => void = () => undefined
    renderPage(
      {
        group,
        infoUnavailable: false,
        students: [member({ email: 'ana@utpl.edu.ec', name: 'Ana Pérez', userId: 'U-ANA', signedIn: true })],
      },
      new Promise<void>((r) => (arrive = r)),
    )
    fireEvent.click(await screen.findByRole('button', { name: 'Restablecer la contraseña de Ana Pérez' }))
    arrive()
    await waitFor(() =>
      expect(confirmAction).toHaveBeenCalledWith(
        'Restablecer contraseña',
        expect.stringContaining('Se enviará a ana@utpl.edu.ec un enlace'),
        'Enviar por correo',
      ),
    )
    expect(showError).not.toHaveBeenCalled()
  })
})
