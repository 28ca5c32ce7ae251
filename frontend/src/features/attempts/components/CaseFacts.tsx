import type { Case } from '@/types/api'

// CaseFacts shows the drawn case: its facts and the question(s) to answer.
export function CaseFacts({ c, headingLevel = 2 }: { c: Case; headingLevel?: 2 | 3 }) {
  const H = `h${headingLevel}` as 'h2' | 'h3'
  const Sub = `h${headingLevel + 1}` as 'h3' | 'h4'
  return (
    <article className="space-y-4">
      <div>
        <p className="text-sm font-semibold text-brand-700">
          {c.area}
          {c.demo && (
            <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-normal text-slate-700">caso de demostración</span>
          )}
        </p>
        <H className="text-xl font-bold text-slate-900">{c.title}</H>
      </div>
      <div>
        <Sub className="font-semibold text-slate-900">Hechos</Sub>
        <p className="mt-1 whitespace-pre-line text-slate-800">{c.facts}</p>
      </div>
      {c.questions.length > 0 && (
        <div>
          <Sub className="font-semibold text-slate-900">{c.questions.length === 1 ? 'Pregunta' : 'Preguntas'}</Sub>
          <ol className="mt-1 list-decimal space-y-1 pl-6 text-slate-800">
            {c.questions.map((q, i) => (
              <li key={i}>{q}</li>
            ))}
          </ol>
        </div>
      )}
    </article>
  )
}
