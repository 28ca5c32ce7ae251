import { CaseFacts } from '@/features/attempts/components/CaseFacts'
import type { Attempt } from '@/types/api'
import { NotesPad } from '../NotesPad'

// PreparationPhase: the case beside the notes pad.
export function PreparationPhase({ a }: { a: Attempt }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section aria-label="Caso" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <CaseFacts c={a.case} />
      </section>
      <section aria-label="Notas" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
        <NotesPad attemptId={a.id} serverNotes={a.notes} />
      </section>
    </div>
  )
}
