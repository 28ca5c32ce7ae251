import { Table, rowClass } from '@/components/ui/Table'
import { formatScore } from '@/lib/format'
import type { AreaResult } from '../api/get-progress'

// AreaResultsTable shows the student's finished attempts per area of law,
// weakest average first (the server's order), so the areas to practise
// stand at the top.
export function AreaResultsTable({ byArea }: { byArea: AreaResult[] }) {
  return (
    <Table
      caption="Resultados por área del derecho"
      showCaption
      columns={['Área', 'Intentos', 'Promedio', 'Aprobados']}
      className="mt-4 rounded-xl bg-white p-4 ring-1 ring-slate-200"
    >
      {byArea.map((r) => (
        <tr key={r.area} className={`${rowClass} last:border-0`}>
          <th scope="row" className="py-2 pr-4 font-semibold text-slate-900">
            {r.area}
          </th>
          <td className="py-2 pr-4">{r.attempts}</td>
          <td className="py-2 pr-4">{formatScore(r.average)} / 10</td>
          <td className="py-2">
            {r.passed} de {r.attempts}
          </td>
        </tr>
      ))}
    </Table>
  )
}
