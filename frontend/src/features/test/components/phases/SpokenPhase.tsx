import type { ReactNode } from 'react'
import type { Attempt } from '@/types/api'
import { StructureGuide } from '../StructureGuide'
import { CaseAndNotes } from './CaseAndNotes'

type Props = { a: Attempt; kind: 'presentation' | 'closing'; notes: string; recorder: ReactNode }

// SpokenPhase is the presentation or the closing: the recorder, the case and
// the notes; in Entrenamiento the presentation also shows the structure guide.
export function SpokenPhase({ a, kind, notes, recorder }: Props) {
  const guide = a.mode === 'entrenamiento' && kind === 'presentation'
  return (
    <div className={`grid gap-6 ${guide ? 'lg:grid-cols-[2fr_1fr]' : ''}`}>
      <div className="space-y-4">
        {recorder}
        <CaseAndNotes a={a} notes={notes} />
      </div>
      {guide && <StructureGuide />}
    </div>
  )
}
