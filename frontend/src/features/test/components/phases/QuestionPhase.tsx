import type { ReactNode } from 'react'
import { Button } from '@/components/ui/Button'
import type { Attempt } from '@/types/api'
import { spokenDuration } from '../../lib/clock'
import { speak, speechSupported } from '../../recording/speech'
import { CaseAndNotes } from './CaseAndNotes'

type Props = { a: Attempt; kind: 'think' | 'answer'; number: number; question: string; notes: string; recorder: ReactNode }

// QuestionPhase is a tribunal question: its think time, then the recorded
// answer. The question can be heard again where the browser can speak.
export function QuestionPhase({ a, kind, number, question, notes, recorder }: Props) {
  return (
    <div className="space-y-4">
      <section aria-labelledby="pregunta" className="rounded-2xl bg-brand-50 p-5 ring-1 ring-brand-200">
        <h3 id="pregunta" className="text-sm font-semibold tracking-wide text-brand-800 uppercase">
          Pregunta {number} del tribunal
        </h3>
        <p className="mt-2 text-xl font-semibold text-slate-900">{question}</p>
        {speechSupported() && (
          <Button variant="outline" className="mt-3" onClick={() => void speak(question)}>
            Escuchar la pregunta
          </Button>
        )}
        {kind === 'think' && (
          <p className="mt-3 text-slate-700">
            Luego tendrá {spokenDuration(a.blueprint.answerSec)} para responder; la respuesta se grabará.
          </p>
        )}
      </section>
      {kind === 'answer' && recorder}
      <CaseAndNotes a={a} notes={notes} />
    </div>
  )
}
