import { Link } from 'react-router-dom'
import { modeName, statusName, summaryScore } from '@/lib/attempts'
import type { AttemptSummary } from '@/types/api'
import { ScoreBadge } from '@/features/attempts/components/ScoreBadge'
import { formatDateTime } from '@/lib/format'
import { paths } from '@/lib/paths'

// AttemptList lists attempts, newest first; each opens its result (or, in
// progress, the attempt itself).
export function AttemptList({ attempts, passScore = 7 }: { attempts: AttemptSummary[]; passScore?: number }) {
  return (
    <ul className="divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
      {attempts.map((a) => {
        const to = a.status === 'in_progress' ? paths.attempt(a.id) : paths.result(a.id)
        return (
          <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
            <div className="min-w-0">
              <Link to={to} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
                {a.caseTitle}
              </Link>
              <p className="text-sm text-slate-700">
                {formatDateTime(a.createdAt)} · {a.area} · {modeName(a.mode)} · {statusName(a.status)}
              </p>
            </div>
            <div className="flex flex-wrap items-center gap-2 text-sm">
              {a.status === 'finished' && (
                <ScoreBadge score={summaryScore(a)} passScore={passScore} label={a.graded ? 'Tutor' : 'Autoevaluación'} />
              )}
              {a.status === 'in_progress' && (
                <Link to={to} className="font-semibold text-brand-700 underline">
                  Continuar intento
                </Link>
              )}
            </div>
          </li>
        )
      })}
    </ul>
  )
}
