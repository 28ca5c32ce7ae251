import { CaseFacts } from '@/features/attempts/components/CaseFacts'
import type { Attempt } from '@/types/api'

// CaseAndNotes keeps the case and the notes at hand during the spoken phases.
export function CaseAndNotes({ a, notes }: { a: Attempt; notes: string }) {
  return (
    <div className="space-y-3">
      <details className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
        <summary className="cursor-pointer font-semibold text-brand-800">Ver el caso</summary>
        <div className="mt-3">
          <CaseFacts c={a.case} headingLevel={3} />
        </div>
      </details>
      <details className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
        <summary className="cursor-pointer font-semibold text-brand-800">Ver sus notas</summary>
        {notes.trim() ? (
          <p className="mt-3 font-mono text-sm leading-relaxed whitespace-pre-wrap text-slate-800">{notes}</p>
        ) : (
          <p className="mt-3 text-slate-700">No escribió notas.</p>
        )}
      </details>
    </div>
  )
}
