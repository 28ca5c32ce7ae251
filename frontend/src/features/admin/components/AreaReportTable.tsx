import { Table, rowClass } from '@/components/ui/Table'
import { formatPercent, formatScore } from '@/lib/format'
import type { AreaReport } from '../api/get-report'

// AreaReportTable is the group's results per area of law, the weakest
// first, with the key points its transcripts leave out most: what the
// tutor's next session should cover.
export function AreaReportTable({ areas }: { areas: AreaReport[] }) {
  return (
    <Table
      caption="Resultados por área del derecho"
      columns={['Área', 'Terminados', 'Nota promedio', 'Aprobación', 'Puntos clave más omitidos']}
      minWidth="min-w-[720px]"
    >
      {areas.map((a) => (
        <tr key={a.area} className={`${rowClass} align-top`}>
          <th scope="row" className="py-2 pr-4 font-semibold">
            {a.area}
          </th>
          <td className="py-2 pr-4 tabular-nums">{a.finished}</td>
          <td className="py-2 pr-4 tabular-nums">{a.average === null ? '—' : `${formatScore(a.average)} / 10`}</td>
          <td className="py-2 pr-4 tabular-nums">{formatPercent(a.passRate)}</td>
          <td className="py-2">
            {a.heard === 0 ? (
              <span className="text-slate-600">Sin transcripciones</span>
            ) : a.missed.length === 0 ? (
              <span className="text-slate-600">
                Ninguno omitido en {a.heard === 1 ? '1 intento transcrito' : `${a.heard} intentos transcritos`}
              </span>
            ) : (
              <ul className="space-y-1">
                {a.missed.map((m) => (
                  <li key={`${m.case}|${m.text}`}>
                    {m.text}{' '}
                    <span className="text-xs text-slate-600">
                      ({m.case}: omitido en {m.missed} de {m.heard})
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </td>
        </tr>
      ))}
    </Table>
  )
}
