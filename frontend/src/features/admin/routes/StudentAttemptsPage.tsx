import { Link, useParams } from 'react-router-dom'
import { Card } from '@/components/ui/Card'
import { ApiError } from '@/lib/api-client'
import { formatScore } from '@/lib/format'
import { useActiveGroupStudents } from '../api/get-active-group-students'
import { useStudentAttempts } from '../api/get-student-attempts'
import { AttemptsTable } from '../components/AttemptsTable'
import { PageState } from '../components/PageState'
import { TrendLabel } from '../components/MembersTable'
import { attemptStats } from '../lib/students'
import { adminPaths } from '@/lib/paths'

// StudentAttemptsPage is /admin/estudiantes/:id (the student's user id):
// every attempt the student made in the tutor's groups, each openable to
// grade or review.
export function StudentAttemptsPage() {
  const { id = '' } = useParams()
  const q = useStudentAttempts(id)
  // The active group's figures (trend) when the student is in it.
  const group = useActiveGroupStudents()
  const member = group.data?.students.find((s) => s.userId === id)
  const name = member?.name || q.data?.[0]?.student.displayName || ''
  const email = member?.email || q.data?.[0]?.student.mail || ''
  const back = (
    <p>
      <Link to={adminPaths.students} className="font-semibold text-brand-700 underline">
        ← Volver a Estudiantes
      </Link>
    </p>
  )
  return (
    <PageState
      query={q}
      back={back}
      errorText={(e) =>
        e instanceof ApiError && e.status === 404 ? 'Ese estudiante no existe.' : 'No se pudieron cargar los intentos del estudiante.'
      }
    >
      {(attempts) => {
        const stats = attemptStats(attempts)
        const figures: [string, string][] = [
          ['Intentos', String(stats.attempts)],
          ['Terminados', String(stats.finished)],
          ['Calificados por usted', String(stats.graded)],
          ['Promedio', stats.average === null ? '—' : `${formatScore(stats.average)} / 10`],
        ]
        return (
          <>
            <Card title={name || email || 'Estudiante'}>
              {name && <p className="-mt-2 mb-4 break-all text-slate-700">{email}</p>}
              <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-5">
                {figures.map(([k, v]) => (
                  <div key={k}>
                    <dt className="text-sm text-slate-600">{k}</dt>
                    <dd className="text-lg font-semibold text-slate-900">{v}</dd>
                  </div>
                ))}
                {member && (
                  <div>
                    <dt className="text-sm text-slate-600">Tendencia en el grupo activo</dt>
                    <dd className="text-lg">
                      <TrendLabel trend={member.trend} />
                    </dd>
                  </div>
                )}
              </dl>
              <p className="mt-3 text-sm text-slate-600">El promedio usa la nota del tutor cuando existe y, si no, la autoevaluación.</p>
            </Card>
            <Card title="Intentos">
              {attempts.length === 0 ? (
                <p className="text-slate-700">Este estudiante aún no tiene intentos en sus grupos.</p>
              ) : (
                <AttemptsTable attempts={attempts} caption={`Intentos de ${name || email || 'el estudiante'}`} variant="student" />
              )}
            </Card>
          </>
        )
      }}
    </PageState>
  )
}
