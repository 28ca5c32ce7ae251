import { useId } from 'react'
import { formatScore } from '@/lib/format'
import type { AreaResult } from '../api/get-progress'

// AreaResultsTable shows the student's finished attempts per area of law,
// weakest average first (the server's order), so the areas to practise
// stand at the top.
export function AreaResultsTable({ byArea }: { byArea: AreaResult[] }) {
  const caption = useId()
  return (
    <div className="mt-4 overflow-x-auto rounded-xl bg-white ring-1 ring-slate-200">
      <table className="w-full text-left text-sm" aria-labelledby={caption}>
        <caption id={caption} className="px-4 pt-3 text-left font-semibold text-slate-900">
          Resultados por área del derecho
        </caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-700">
            <th scope="col" className="px-4 py-2">
              Área
            </th>
            <th scope="col" className="px-4 py-2">
              Intentos
            </th>
            <th scope="col" className="px-4 py-2">
              Promedio
            </th>
            <th scope="col" className="px-4 py-2">
              Aprobados
            </th>
          </tr>
        </thead>
        <tbody>
          {byArea.map((r) => (
            <tr key={r.area} className="border-b border-slate-100 last:border-0">
              <th scope="row" className="px-4 py-2 font-semibold text-slate-900">
                {r.area}
              </th>
              <td className="px-4 py-2">{r.attempts}</td>
              <td className="px-4 py-2">{formatScore(r.average)} / 10</td>
              <td className="px-4 py-2">
                {r.passed} de {r.attempts}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
