import type { Case } from '../api/types'

// RevealPanel puts the case's expected key points and legal bases beside
// the student's own notes, to compare after self-assessing (docs/product.md,
// "Phases", phase 6).
export function RevealPanel({ c, notes, headingLevel = 2 }: { c: Case; notes: string; headingLevel?: 2 | 3 }) {
  const H = `h${headingLevel}` as 'h2' | 'h3'
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section className="space-y-4 rounded-xl bg-white p-5 ring-1 ring-slate-200">
        <div>
          <H className="text-lg font-bold text-brand-800">Puntos clave del caso</H>
          {c.keyPoints.length > 0 ? (
            <ul className="mt-2 list-disc space-y-1 pl-6 text-slate-800">
              {c.keyPoints.map((k, i) => (
                <li key={i}>{k}</li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-slate-700">El caso no tiene puntos clave registrados.</p>
          )}
        </div>
        <div>
          <H className="text-lg font-bold text-brand-800">Bases legales</H>
          {c.legalBases.length > 0 ? (
            <ul className="mt-2 list-disc space-y-1 pl-6 text-slate-800">
              {c.legalBases.map((b, i) => (
                <li key={i}>
                  {b.norm}, art. {b.article}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-slate-700">El caso no tiene bases legales registradas.</p>
          )}
        </div>
      </section>
      <section className="rounded-xl bg-white p-5 ring-1 ring-slate-200">
        <H className="text-lg font-bold text-brand-800">Sus notas</H>
        {notes.trim() ? (
          <p className="mt-2 font-mono text-sm leading-relaxed whitespace-pre-wrap text-slate-800">{notes}</p>
        ) : (
          <p className="mt-2 text-slate-700">No escribió notas en la preparación.</p>
        )}
      </section>
    </div>
  )
}
