import type { Case } from '@/types/api'
import { baseCitation } from '@/features/attempts/components/RevealPanel'
import { keyPointLinkText, keyPointLinks } from '@/features/attempts/lib/follow-ups'

// CaseDetails shows a case as the tutor reads it while grading: facts,
// questions, the tribunal's questions, and the expected key points and
// legal bases. With `asked` (how many tribunal questions the attempt
// asked), the questions the student never heard are set apart, and each
// key point says which asked question it answers, numbered as heard.
export function CaseDetails({ c, asked }: { c: Case; asked?: number }) {
  const heard = asked === undefined ? c.followUps : c.followUps.slice(0, asked)
  const notHeard = asked === undefined ? [] : c.followUps.slice(asked)
  const links = keyPointLinks(c, asked)
  const keyPoints = c.keyPoints.map((k, i) => (links.has(i) ? `${k} (${keyPointLinkText(links.get(i)!)})` : k))
  return (
    <div className="space-y-5">
      <section aria-labelledby="caso-hechos">
        <h3 id="caso-hechos" className="font-semibold text-slate-900">
          Hechos
        </h3>
        <p className="mt-1 whitespace-pre-wrap text-slate-800">{c.facts}</p>
      </section>
      <List id="caso-preguntas" title="Preguntas del caso" items={c.questions} ordered />
      <List id="caso-tribunal" title="Preguntas del tribunal" items={heard} ordered />
      {notHeard.length > 0 && <List id="caso-no-formuladas" title="Preguntas del caso no formuladas en este intento" items={notHeard} />}
      <List id="caso-puntos" title="Puntos clave esperados" items={keyPoints} />
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
