import { Table, rowClass } from '@/components/ui/Table'
import type { Levels, Rubric } from '@/types/api'
import { formatScore } from '@/lib/format'

const points = (weight: number, level: number | undefined) => (level ? (weight * level) / 4 / 10 : null)

// RubricTable shows, criterion by criterion, the levels given by the
// student and by the tutor with the points each adds to the mark.
export function RubricTable({ rubric, self, tutor }: { rubric: Rubric; self?: Levels | null; tutor?: Levels | null }) {
  const levelName = (l?: number) => (l ? `${l} · ${rubric.levels.find((x) => x.level === l)?.name ?? ''}` : '—')
  return (
    <Table caption="Rúbrica: niveles por criterio" columns={['Criterio', 'Peso', 'Autoevaluación', 'Tutor']} minWidth="min-w-[560px]">
      {rubric.criteria.map((c) => (
        <tr key={c.id} className={`${rowClass} align-top`}>
          <th scope="row" className="py-2 pr-4 font-normal">
            <span className="font-semibold">{c.id}.</span> {c.name}
            <span className="block text-xs text-slate-600">{c.group === 'contenido' ? 'Contenido' : 'Formalidades'}</span>
          </th>
          <td className="py-2 pr-4">{c.weight}</td>
          <td className="py-2 pr-4">
            {levelName(self?.[c.id])}
            {self?.[c.id] ? <span className="block text-xs text-slate-600">{formatScore(points(c.weight, self[c.id]))} pts</span> : null}
          </td>
          <td className="py-2">
            {levelName(tutor?.[c.id])}
            {tutor?.[c.id] ? <span className="block text-xs text-slate-600">{formatScore(points(c.weight, tutor[c.id]))} pts</span> : null}
          </td>
        </tr>
      ))}
    </Table>
  )
}
