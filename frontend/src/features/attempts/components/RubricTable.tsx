import type { Levels, Rubric } from '@/types/api'
import { formatScore } from '@/lib/format'

const points = (weight: number, level: number | undefined) => (level ? (weight * level) / 4 / 10 : null)

// RubricTable shows, criterion by criterion, the levels given by the
// student and by the tutor with the points each adds to the mark.
export function RubricTable({ rubric, self, tutor }: { rubric: Rubric; self?: Levels | null; tutor?: Levels | null }) {
  const levelName = (l?: number) => (l ? `${l} · ${rubric.levels.find((x) => x.level === l)?.name ?? ''}` : '—')
  return (
    // Focusable so a keyboard user can scroll it on a narrow screen (WCAG 2.1.1).
    <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Rúbrica: niveles por criterio">
      <table className="w-full min-w-[560px] text-left text-sm">
        <caption className="sr-only">Rúbrica: niveles por criterio</caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Criterio
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Peso
            </th>
            <th scope="col" className="py-2 pr-3 font-semibold">
              Autoevaluación
            </th>
            <th scope="col" className="py-2 font-semibold">
              Tutor
            </th>
          </tr>
        </thead>
        <tbody>
          {rubric.criteria.map((c) => (
            <tr key={c.id} className="border-b border-slate-200 align-top">
              <th scope="row" className="py-2 pr-3 font-normal">
                <span className="font-semibold">{c.id}.</span> {c.name}
                <span className="block text-xs text-slate-600">{c.group === 'contenido' ? 'Contenido' : 'Formalidades'}</span>
              </th>
              <td className="py-2 pr-3">{c.weight}</td>
              <td className="py-2 pr-3">
                {levelName(self?.[c.id])}
                {self?.[c.id] ? (
                  <span className="block text-xs text-slate-600">{formatScore(points(c.weight, self[c.id]))} pts</span>
                ) : null}
              </td>
              <td className="py-2">
                {levelName(tutor?.[c.id])}
                {tutor?.[c.id] ? (
                  <span className="block text-xs text-slate-600">{formatScore(points(c.weight, tutor[c.id]))} pts</span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
