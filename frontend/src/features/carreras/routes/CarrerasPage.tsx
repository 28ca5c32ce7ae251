import { lazy, Suspense } from 'react'
import { Link } from 'react-router-dom'
import { Card } from '@/components/ui/Card'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { buttonClass } from '@/components/ui/Button'
import { useSession } from '@/features/auth/api/get-session'
import { modeName } from '@/lib/attempts'
import { useOverview } from '@/features/test/api/overview'
import { PendingUploadsNotice } from '@/features/test/components/PendingUploadsNotice'
import { formatScore } from '@/lib/format'
import { paths } from '@/lib/paths'
import { useDegrees } from '@/lib/get-degrees'
import { trendText, useProgress } from '../api/get-progress'
import { AreaResultsTable } from '../components/AreaResultsTable'
import { AttemptList } from '../components/AttemptList'
import { AuthNav } from '@/components/layout/AuthNav'

// CarrerasPage is the student's home: their degree with the way into the
// simulator, their progress at a glance and their recent attempts.
// The charts load only when there is something to draw.
const CriterionCharts = lazy(() => import('../components/CriterionCharts'))

export function CarrerasPage() {
  const { data: session } = useSession()
  const canPractise = !!session?.access.test
  const degrees = useDegrees()
  const overview = useOverview(canPractise)
  const progress = useProgress()
  const name = session?.user?.givenName || session?.user?.displayName || session?.user?.mail
  const mine = overview.data?.degree
  const others = (degrees.data ?? []).filter((d) => d.id !== mine?.id)
  const p = progress.data

  return (
    <>
      <PageHeader title="Carreras" subtitle={name ? `Bienvenido(a), ${name}.` : undefined}>
        <AuthNav />
      </PageHeader>
      <div className="mx-auto max-w-6xl space-y-8 px-4 py-10 sm:px-6">
        {!canPractise && (
          <div role="note" className="rounded-xl border border-gold-400 bg-gold-300/20 p-4 text-slate-800">
            Aún no pertenece a un grupo activo. Solicite a su tutor que lo agregue a su grupo para practicar el examen.
          </div>
        )}

        <PendingUploadsNotice />
        {canPractise && (
          <Card title="Su carrera">
            {overview.isPending && <Spinner />}
            {mine && (
              <div className="flex flex-wrap items-center justify-between gap-4">
                <div>
                  <p className="text-2xl font-bold text-brand-800">{mine.nombre}</p>
                  <p className="text-slate-700">
                    Practique el examen complexivo oral: sorteo, preparación, exposición, preguntas del tribunal y cierre.
                  </p>
                </div>
                <div className="flex flex-wrap gap-3">
                  {overview.data?.inProgress && (
                    <Link to={paths.attempt(overview.data.inProgress.id)} className={buttonClass('gold')}>
                      Continuar intento
                    </Link>
                  )}
                  <Link to={paths.test} className={buttonClass('primary')}>
                    Practicar
                  </Link>
                </div>
              </div>
            )}
            {overview.data?.inProgress && (
              <p className="mt-3 text-sm text-slate-700">
                Intento en curso: {modeName(overview.data.inProgress.mode)} · {overview.data.inProgress.caseTitle}
              </p>
            )}
          </Card>
        )}

        {p && p.attempts > 0 && (
          <section aria-labelledby="progreso">
            <h2 id="progreso" className="text-xl font-bold text-brand-800">
              Su progreso
            </h2>
            <dl className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-4">
              <Figure label="Intentos" value={`${p.attempts}`} note={p.finished === 1 ? '1 terminado' : `${p.finished} terminados`} />
              <Figure label="Última nota" value={p.lastScore === null ? '—' : `${formatScore(p.lastScore)} / 10`} />
              <Figure label="Promedio" value={p.average === null ? '—' : `${formatScore(p.average)} / 10`} />
              <Figure label="Tendencia" value={trendText(p.trend)} small wide />
            </dl>
            {p.byCriterion.some((c) => c.points.length > 0) && (
              <div className="mt-4">
                <Suspense fallback={<Spinner />}>
                  <CriterionCharts byCriterion={p.byCriterion} />
                </Suspense>
              </div>
            )}
            {p.byArea.length > 0 && <AreaResultsTable byArea={p.byArea} />}
          </section>
        )}

        {p && p.recent.length > 0 && (
          <section aria-labelledby="recientes" className="space-y-3">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <h2 id="recientes" className="text-xl font-bold text-brand-800">
                Intentos recientes
              </h2>
              <Link to={paths.historial} className="font-semibold text-brand-700 underline">
                Ver todo el historial
              </Link>
            </div>
            <AttemptList attempts={p.recent} />
          </section>
        )}

        {!(mine && others.length === 0) && (
          <section aria-labelledby="disponibles">
            <h2 id="disponibles" className="text-xl font-bold text-brand-800">
              {mine ? 'Otras carreras' : 'Carreras disponibles'}
            </h2>
            {degrees.isPending && <Spinner />}
            {degrees.isError && <p role="alert">No se pudieron cargar las carreras. Intente de nuevo más tarde.</p>}
            <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {(mine ? others : (degrees.data ?? [])).map((d) => (
                <li key={d.id} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
                  <h3 className="text-lg font-semibold text-brand-800">{d.nombre}</h3>
                  {canPractise && !mine && !overview.isPending && (
                    <Link to={paths.test} className={buttonClass('primary', 'mt-4')}>
                      Practicar
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </>
  )
}

function Figure({ label, value, note, small, wide }: { label: string; value: string; note?: string; small?: boolean; wide?: boolean }) {
  return (
    <div className={`rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 ${wide ? 'col-span-2 lg:col-span-1' : ''}`}>
      <dt className="text-sm text-slate-700">{label}</dt>
      <dd className={`${small ? 'text-base' : 'text-2xl'} font-bold text-slate-900`}>
        {value}
        {note && <span className="block text-sm font-normal text-slate-700">{note}</span>}
      </dd>
    </div>
  )
}
