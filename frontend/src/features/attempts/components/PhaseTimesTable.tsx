import { Table, rowClass } from '@/components/ui/Table'
import type { Phase } from '@/types/api'
import { phaseName } from '@/lib/attempts'

export const formatSeconds = (s: number) => `${Math.floor(s / 60)}:${String(Math.max(0, Math.round(s % 60))).padStart(2, '0')}`

// PhaseTimesTable is the timing measure: time used in each phase against
// its limit (the evidence behind F3, Manejo del tiempo).
export function PhaseTimesTable({ phases }: { phases: Phase[] }) {
  const timed = phases.filter((p) => p.limitSec > 0)
  return (
    <Table caption="Tiempo usado por fase" columns={['Fase', 'Usado', 'Límite', 'Uso']} minWidth="min-w-[480px]">
      {timed.map((p, i) => {
        const pct = Math.min(100, Math.round((p.usedSec / p.limitSec) * 100))
        return (
          <tr key={i} className={rowClass}>
            <th scope="row" className="py-2 pr-4 font-normal">
              {phaseName(p)}
              {p.skipped && <span className="ml-1 text-xs text-slate-600">(omitida)</span>}
            </th>
            <td className="py-2 pr-4 tabular-nums">{formatSeconds(p.usedSec)}</td>
            <td className="py-2 pr-4 tabular-nums">{formatSeconds(p.limitSec)}</td>
            <td className="py-2">
              <span className="flex items-center gap-2">
                <span aria-hidden="true" className="h-2 w-24 overflow-hidden rounded bg-slate-200">
                  <span className={`block h-full ${pct >= 100 ? 'bg-gold-500' : 'bg-brand-600'}`} style={{ width: `${pct}%` }} />
                </span>
                {pct} %
              </span>
            </td>
          </tr>
        )
      })}
    </Table>
  )
}
