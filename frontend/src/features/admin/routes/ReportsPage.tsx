import { useState } from 'react'
import { BarChart } from '@/components/charts/BarChart'
import { LineChart } from '@/components/charts/LineChart'
import { buttonClass } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { PageSpinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api-client'
import { formatDate, formatPercent, formatScore } from '@/lib/format'
import { useGroupHistory } from '../api/get-groups'
import { exportUrl, useReport } from '../api/get-report'
import { AreaReportTable } from '../components/AreaReportTable'
import { inputBase } from '@/components/ui/input'

const levelName = (l: number) => (l >= 3.5 ? 'Excelente' : l >= 2.5 ? 'Satisfactorio' : l >= 1.5 ? 'En desarrollo' : 'Insuficiente')

// ReportsPage is the tutor's view of a group's progress (docs/product.md,
// /admin Reportes): averages per criterion, results per area of law,
// pass rate, attempts per week, students who have not practised in 14
// days, and the exports.
export function ReportsPage() {
  const [groupId, setGroupId] = useState('')
  const history = useGroupHistory()
  const q = useReport(groupId)

  if (q.isPending) return <PageSpinner />
  if (q.isError) {
    const msg = q.error instanceof ApiError ? q.error.message : 'No se pudo cargar el reporte.'
    return <Notice tone={q.error instanceof ApiError && q.error.status === 404 ? 'info' : 'error'}>{msg}</Notice>
  }
  const { group, report: r } = q.data
  return (
    <div className="space-y-6">
      <Card
        title="Reporte del grupo"
        actions={
          <a href={exportUrl(group.id)} className={buttonClass('outline')} download>
            Exportar calificaciones (CSV)
          </a>
        }
      >
        {(history.data?.length ?? 0) > 1 && (
          <div className="mb-4">
            <label htmlFor="reporte-grupo" className="block text-sm font-medium text-slate-800">
              Grupo
            </label>
            <select
              id="reporte-grupo"
              value={group.id}
              onChange={(e) => setGroupId(e.target.value)}
              className={`mt-1 ${inputBase} px-3 py-2`}
            >
              {history.data?.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.carreraNombre} · {g.status === 'activo' ? 'activo' : `finalizado el ${formatDate(g.finalizedAt)}`} ·{' '}
                  {formatDate(g.createdAt)}
                </option>
              ))}
            </select>
          </div>
        )}
        <dl className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6">
          {(
            [
              ['Estudiantes', String(r.students)],
              ['Intentos', String(r.attempts)],
              ['Terminados', String(r.finished)],
              ['Calificados', String(r.graded)],
              ['Tasa de aprobación', formatPercent(r.passRate)],
              ['Nota promedio', r.average === null ? '—' : `${formatScore(r.average)} / 10`],
            ] as const
          ).map(([k, v]) => (
            <div key={k}>
              <dt className="text-sm text-slate-600">{k}</dt>
              <dd className="text-2xl font-bold text-brand-800">{v}</dd>
            </div>
          ))}
        </dl>
      </Card>
      <Card title="Promedio por criterio">
        {r.byCriterion.length === 0 ? (
          <p className="text-slate-700">Aún no hay intentos terminados.</p>
        ) : (
          <BarChart
            title="Nivel promedio de 1 (Insuficiente) a 4 (Excelente), según la calificación del tutor o, sin ella, la autoevaluación"
            max={4}
            bars={r.byCriterion.map((c) => ({
              label: `${c.id}. ${c.name}`,
              value: c.averageLevel,
              note: `(${levelName(c.averageLevel)})`,
            }))}
            format={(v) => v.toLocaleString('es-EC', { maximumFractionDigits: 2 })}
          />
        )}
      </Card>
      <Card
        title="Resultados por área del derecho"
        actions={
          r.byArea.length > 0 && (
            <a href={exportUrl(group.id, true)} className={buttonClass('outline')} download>
              Exportar resultados por área (CSV)
            </a>
          )
        }
      >
        {r.byArea.length === 0 ? (
          <p className="text-slate-700">Aún no hay intentos terminados.</p>
        ) : (
          <>
            <p className="mb-3 text-sm text-slate-700">
              Las áreas con menor nota promedio aparecen primero. Los puntos clave omitidos salen de las transcripciones de los intentos.
            </p>
            <AreaReportTable areas={r.byArea} />
          </>
        )}
      </Card>
      <Card title="Práctica por semana">
        {r.weeks.length === 0 ? (
          <p className="text-slate-700">Aún no hay intentos.</p>
        ) : (
          <div className="grid gap-6 lg:grid-cols-2">
            <BarChart
              title="Intentos por semana"
              max={Math.max(...r.weeks.map((w) => w.attempts))}
              bars={r.weeks.map((w) => ({ label: `Semana del ${formatDate(w.start)}`, value: w.attempts }))}
            />
            <LineChart
              title="Nota promedio por semana"
              yMin={0}
              yMax={10}
              yTicks={[0, 2, 4, 6, 8, 10]}
              threshold={{ y: 7, label: 'Aprobación' }}
              series={[
                {
                  name: 'Nota promedio',
                  points: r.weeks
                    .map((w, i) => ({ x: i, y: w.average ?? NaN, label: `Semana del ${formatDate(w.start)}` }))
                    .filter((p) => !Number.isNaN(p.y)),
                },
              ]}
              yFormat={(v) => formatScore(v)}
            />
          </div>
        )}
      </Card>
      <Card title="Sin práctica en los últimos 14 días">
        {r.inactive.length === 0 ? (
          <p className="text-slate-700">Todos los estudiantes practicaron en los últimos 14 días.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {r.inactive.map((s) => (
              <li key={s.email} className="flex flex-wrap justify-between gap-2 py-2">
                <span>
                  {s.name || s.email} <span className="text-sm text-slate-600">({s.email})</span>
                </span>
                <span className="text-sm text-slate-700">
                  {s.lastActivity ? `Última práctica: ${formatDate(s.lastActivity)}` : 'Nunca ha practicado'}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  )
}
