import type { Case } from '@/types/api'
import { baseCitation } from '@/features/attempts/components/RevealPanel'

// CaseDetails shows a case as the tutor reads it while grading: facts,
// questions, the tribunal's questions, and the expected key points and
// legal bases.
export function CaseDetails({ c }: { c: Case }) {
  return (
    <div className="space-y-5">
      <section aria-labelledby="caso-hechos">
        <h3 id="caso-hechos" className="font-semibold text-slate-900">
          Hechos
        </h3>
        <p className="mt-1 whitespace-pre-wrap text-slate-800">{c.facts}</p>
      </section>
      <List id="caso-preguntas" title="Preguntas del caso" items={c.questions} ordered />
      <List id="caso-tribunal" title="Preguntas del tribunal" items={c.followUps} ordered />
      <List id="caso-puntos" title="Puntos clave esperados" items={c.keyPoints} />
      <List
        id="caso-bases"
        title="Bases legales esperadas"
        items={c.legalBases.map((b) => (b.note ? `${baseCitation(b)}: ${b.note}` : baseCitation(b)))}
      />
    </div>
  )
}

function List({ id, title, items, ordered }: { id: string; title: string; items: string[]; ordered?: boolean }) {
  const Tag = ordered ? 'ol' : 'ul'
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="font-semibold text-slate-900">
        {title}
      </h3>
      {items.length === 0 ? (
        <p className="mt-1 text-slate-700">—</p>
      ) : (
        <Tag className={`mt-1 space-y-1 pl-5 text-slate-800 ${ordered ? 'list-decimal' : 'list-disc'}`}>
          {items.map((it, i) => (
            <li key={i}>{it}</li>
          ))}
        </Tag>
      )}
    </section>
  )
}
