import { useEffect, useRef } from 'react'
import { Navigate, NavLink, Route, Routes, useLocation } from 'react-router-dom'
import { PageHeader } from '@/components/ui/PageHeader'
import { useGradingQueue } from '../api/get-grading-queue'
import { GroupPage } from './GroupPage'
import { StudentsPage } from './StudentsPage'
import { ReportsPage } from './ReportsPage'
import { GroupDetailPage } from './GroupDetailPage'
import { GradingQueuePage } from './GradingQueuePage'
import { GradeAttemptPage } from './GradeAttemptPage'
import { StudentAttemptsPage } from './StudentAttemptsPage'
import { CasesPage } from './CasesPage'
import { EditCasePage, NewCasePage } from './CaseEditPage'
import { ConfigPage } from './ConfigPage'
import { adminPaths } from '@/lib/paths'

const tabs = [
  [adminPaths.group, 'Grupo'],
  [adminPaths.students, 'Estudiantes'],
  [adminPaths.grading, 'Calificar'],
  [adminPaths.cases, 'Banco de casos'],
  [adminPaths.config, 'Configuración'],
  [adminPaths.reports, 'Reportes'],
] as const

// PendingCount shows, beside Calificar, how many attempts wait for a grade.
function PendingCount() {
  const q = useGradingQueue()
  const n = q.data?.length ?? 0
  if (n === 0) return null
  return (
    <span className="ml-2 rounded-full bg-gold-400 px-2 py-0.5 text-xs font-bold text-brand-900">
      {n}
      <span className="sr-only"> por calificar</span>
    </span>
  )
}

// AdminSection is /admin: tutors only.
export function AdminSection() {
  const nav = useRef<HTMLElement>(null)
  const { pathname } = useLocation()
  // On a narrow screen the tabs scroll sideways: keep the current one in view.
  useEffect(() => {
    const n = nav.current
    const el = n?.querySelector<HTMLElement>('[aria-current="page"]')
    if (!n || !el) return
    const left = el.getBoundingClientRect().left - n.getBoundingClientRect().left
    if (left < 0 || left + el.offsetWidth > n.clientWidth) n.scrollLeft += left - 16
  }, [pathname])
  return (
    <>
      <PageHeader title="Administrador" subtitle="Gestione su grupo de estudiantes, califique y configure el simulador.">
        <nav ref={nav} aria-label="Secciones del administrador" className="mt-6 -mb-10 overflow-x-auto">
          <ul className="flex gap-1">
            {tabs.map(([to, label]) => (
              <li key={to}>
                <NavLink
                  to={to}
                  className={({ isActive }) =>
                    `flex items-center rounded-t-lg px-4 py-2.5 font-semibold whitespace-nowrap ${isActive ? 'bg-slate-50 text-brand-800' : 'text-white hover:bg-white/10'}`
                  }
                >
                  {label}
                  {to === adminPaths.grading && <PendingCount />}
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
          <Route path="estudiantes/:id" element={<StudentAttemptsPage />} />
          <Route path="calificar" element={<GradingQueuePage />} />
          <Route path="calificar/:attemptId" element={<GradeAttemptPage />} />
          <Route path="casos" element={<CasesPage />} />
          <Route path="casos/nuevo" element={<NewCasePage />} />
          <Route path="casos/:id" element={<EditCasePage />} />
          <Route path="configuracion" element={<ConfigPage />} />
          <Route path="reportes" element={<ReportsPage />} />
          <Route path="grupos/:id" element={<GroupDetailPage />} />
          <Route path="*" element={<Navigate to={adminPaths.group} replace />} />
        </Routes>
      </div>
    </>
  )
}
