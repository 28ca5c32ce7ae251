import type { Case, LegalBase } from '@/types/api'
import { keyPointLinkText, keyPointLinks } from '../lib/follow-ups'

/** How a legal base is cited: «COIP, art. 146». */
export const baseCitation = (b: LegalBase) => `${b.norm}, ${b.label || `art. ${b.article}`}`

// RevealPanel puts the case's expected key points and legal bases beside
// the student's own notes, to compare after self-assessing (docs/product.md,
// "Phases", phase 6). Each legal base links to the official text of its
// norm, in a new tab, with a one-line description of what the article
// regulates. `asked` is how many tribunal questions the attempt asked: a
// key point speaks only of those, numbered as the student heard them.
export function RevealPanel({ c, notes, asked, headingLevel = 2 }: { c: Case; notes: string; asked?: number; headingLevel?: 2 | 3 }) {
  const H = `h${headingLevel}` as 'h2' | 'h3'
  const answers = keyPointLinks(c, asked)
  const described = c.legalBases.some((b) => b.note)
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section className="space-y-4 rounded-xl bg-white p-5 ring-1 ring-slate-200">
        <div>
          <H className="text-lg font-bold text-brand-800">Puntos clave del caso</H>
          {c.keyPoints.length > 0 ? (
            <ul className="mt-2 list-disc space-y-1 pl-6 text-slate-800">
              {c.keyPoints.map((k, i) => (
                <li key={i}>
                  {k}
                  {answers.has(i) && <span className="block text-sm font-medium text-brand-700">{keyPointLinkText(answers.get(i)!)}</span>}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-slate-700">El caso no tiene puntos clave registrados.</p>
          )}
        </div>
        <div>
          <H className="text-lg font-bold text-brand-800">Bases legales</H>
          {c.legalBases.length > 0 ? (
            <ul className="mt-2 list-disc space-y-2 pl-6 text-slate-800">
              {c.legalBases.map((b, i) => (
                <li key={i}>
                  {b.url ? (
                    <a
                      href={b.url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="font-medium text-brand-700 underline hover:text-brand-800"
                    >
                      {baseCitation(b)}
                      <span className="sr-only"> (texto oficial de la norma, se abre en una pestaña nueva)</span>
                    </a>
                  ) : (
                    <span className="font-medium">{baseCitation(b)}</span>
                  )}
                  {b.note && <span className="block text-sm text-slate-700">{b.note}</span>}
                </li>
              ))}
            </ul>
          ) : (
            <p className="mt-2 text-slate-700">El caso no tiene bases legales registradas.</p>
          )}
          {described && c.demo && (
            <p className="mt-3 text-sm text-slate-600">
              Las descripciones de los artículos son material de demostración, pendiente de revisión docente: contraste siempre con el texto
              oficial vigente.
            </p>
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
