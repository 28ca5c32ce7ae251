import { Link } from 'react-router-dom'
import { buttonClass } from '@/components/ui/Button'
import { Notice } from '@/components/ui/Notice'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { useSession } from '@/features/auth/api/get-session'
import { paths } from '@/lib/paths'
import { useMyAttempts } from '../api/get-my-attempts'
import { AttemptList } from '../components/AttemptList'
import { AuthNav } from '@/components/layout/AuthNav'

// HistorialPage is /auth/historial: every attempt of the user, newest first.
export function HistorialPage() {
  const attempts = useMyAttempts()
  const { data: session } = useSession()
  return (
    <>
      <PageHeader
        title="Historial"
        subtitle="Sus intentos, del más reciente al más antiguo. Abra uno para escuchar sus grabaciones y ver su calificación."
      >
        <AuthNav />
      </PageHeader>
      <div className="mx-auto max-w-6xl space-y-4 px-4 py-10 sm:px-6">
        {attempts.isPending && <Spinner label="Cargando el historial…" />}
        {attempts.isError && <Notice tone="error">No se pudo cargar el historial. {attempts.error.message}</Notice>}
        {attempts.data && attempts.data.length === 0 && (
          <div className="space-y-4">
            <p className="text-slate-700">Aún no tiene intentos.</p>
            {session?.access.test && (
              <Link to={paths.test} className={buttonClass('primary')}>
                Practicar
              </Link>
            )}
          </div>
        )}
        {attempts.data && attempts.data.length > 0 && <AttemptList attempts={attempts.data} />}
      </div>
    </>
  )
}
