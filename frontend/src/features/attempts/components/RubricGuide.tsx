import type { Rubric } from '@/types/api'

// RubricGuide explains the rubric: what each criterion looks for and what
// each level means. Students read it before and after an attempt.
export function RubricGuide({ rubric }: { rubric: Rubric }) {
  const groups = [
    ['contenido', 'Contenido'],
    ['formalidades', 'Formalidades'],
  ] as const
  return (
    <div className="space-y-8">
      <p className="text-slate-700">
        Cada criterio se califica en cuatro niveles: 4 Excelente, 3 Satisfactorio, 2 En desarrollo y 1 Insuficiente. La nota sobre 10 es la
        suma de peso × nivel ÷ 4, dividida para 10. Se aprueba con {rubric.passScore.toLocaleString('es-EC')}.
      </p>
      {groups.map(([g, name]) => {
        const criteria = rubric.criteria.filter((c) => c.group === g)
        const weight = criteria.reduce((s, c) => s + c.weight, 0)
        return (
          <section key={g} aria-labelledby={`guia-${g}`}>
            <h2 id={`guia-${g}`} className="text-xl font-bold text-brand-800">
              {name} ({weight} puntos)
            </h2>
            <div className="mt-3 space-y-4">
              {criteria.map((c) => (
                <article key={c.id} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
                  <h3 className="font-semibold text-slate-900">
                    {c.id}. {c.name} <span className="font-normal text-slate-600">· peso {c.weight}</span>
                  </h3>
                  <p className="mt-1 text-slate-700">{c.description}</p>
                  <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
                    {[4, 3, 2, 1].map((l) => (
                      <div key={l} className="rounded-lg bg-slate-50 p-2">
                        <dt className="font-semibold">
                          {l} · {rubric.levels.find((x) => x.level === l)?.name}
                        </dt>
                        <dd className="text-slate-700">{c.descriptors[l - 1]}</dd>
                      </div>
                    ))}
                  </dl>
                </article>
              ))}
            </div>
          </section>
        )
      })}
    </div>
  )
}
