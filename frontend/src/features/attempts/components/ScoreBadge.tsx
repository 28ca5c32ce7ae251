import { formatScore } from '@/lib/format'

// ScoreBadge shows a mark out of 10 and whether it reaches the pass mark.
export function ScoreBadge({ score, passScore = 7, label }: { score: number | null | undefined; passScore?: number; label?: string }) {
  if (score === null || score === undefined) return <span className="text-slate-600">{label ? `${label}: ` : ''}—</span>
  const passed = score >= passScore
  return (
    <span
      className={`inline-flex items-baseline gap-1 rounded-full px-3 py-1 font-semibold ${passed ? 'bg-green-100 text-green-900' : 'bg-red-100 text-red-900'}`}
    >
      {label && <span className="font-normal">{label}:</span>}
      {formatScore(score)}
      <span className="text-xs font-normal">/ 10 · {passed ? 'Aprobado' : 'No aprobado'}</span>
    </span>
  )
}
