import { LineChart } from '@/components/charts/LineChart'
import { formatDate } from '@/lib/format'
import type { Progress } from '../api/get-progress'

const levelNames: Record<number, string> = { 1: 'Insuficiente', 2: 'En desarrollo', 3: 'Satisfactorio', 4: 'Excelente' }

// CriterionCharts shows the levels each criterion got over the student's
// finished attempts (the tutor's grade when there is one), one chart for
// contents and one for formalities. Loaded lazily with the page.
export default function CriterionCharts({ byCriterion }: { byCriterion: Progress['byCriterion'] }) {
  const groups = [
    ['contenido', 'Contenido: nivel por criterio en cada intento'],
    ['formalidades', 'Formalidades: nivel por criterio en cada intento'],
  ] as const
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {groups.map(([g, title]) => {
        const series = byCriterion
          .filter((c) => (c.group ?? (c.id.startsWith('F') ? 'formalidades' : 'contenido')) === g && c.points.length > 0)
          .map((c) => ({
            name: `${c.id}. ${c.name}`,
            points: c.points.map((p, i) => ({ x: i + 1, y: p.level, label: `Intento del ${formatDate(p.at)}` })),
          }))
        if (series.length === 0) return null
        return (
          <div key={g} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <LineChart
              title={title}
              series={series}
              yMin={1}
              yMax={4}
              yTicks={[1, 2, 3, 4]}
              yFormat={(v) => `${v} ${levelNames[v] ?? ''}`.trim()}
              xFormat={(x) => `Intento ${x}`}
            />
          </div>
        )
      })}
    </div>
  )
}
