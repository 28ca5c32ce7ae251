import { Navigate, NavLink, Route, Routes } from 'react-router-dom'
import { PageHeader } from '@/components/ui/PageHeader'
import { GroupPage } from './GroupPage'
import { StudentsPage } from './StudentsPage'
import { GroupDetailPage } from './GroupDetailPage'

const tabs = [
  ['grupo', 'Grupo'],
  ['estudiantes', 'Estudiantes'],
] as const

// AdminSection is /admin: tutors only.
export function AdminSection() {
  return (
    <>
      <PageHeader title="Administrador" subtitle="Gestione su grupo de estudiantes, califique y configure el simulador.">
        <nav aria-label="Secciones del administrador" className="mt-6 -mb-10 overflow-x-auto">
          <ul className="flex gap-1">
            {tabs.map(([path, label]) => (
              <li key={path}>
                <NavLink
                  to={`/admin/${path}`}
                  className={({ isActive }) =>
                    `block rounded-t-lg px-4 py-2.5 font-semibold whitespace-nowrap ${isActive ? 'bg-slate-50 text-brand-800' : 'text-white hover:bg-white/10'}`
                  }
                >
                  {label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
      </PageHeader>
      <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6">
        <Routes>
          <Route path="grupo" element={<GroupPage />} />
          <Route path="estudiantes" element={<StudentsPage />} />
          <Route path="grupos/:id" element={<GroupDetailPage />} />
          <Route path="*" element={<Navigate to="grupo" replace />} />
        </Routes>
      </div>
    </>
  )
}
