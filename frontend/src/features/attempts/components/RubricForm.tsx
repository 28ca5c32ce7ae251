import { useId } from 'react'
import type { Levels, Rubric } from '@/types/api'
import { scoreOf } from '@/lib/attempts'
import { formatScore } from '@/lib/format'

const groupName = { contenido: 'Contenido', formalidades: 'Formalidades' } as const

// RubricForm asks a level (1–4) for every criterion, showing what each level
// looks like: the student self-assesses and the tutor grades with it.
export function RubricForm({
  rubric,
  value,
  onChange,
  legend,
}: {
  rubric: Rubric
  value: Levels
  onChange: (v: Levels) => void
  legend: string
}) {
  const base = useId()
  const complete = rubric.criteria.every((c) => value[c.id])
  return (
    <fieldset className="space-y-6">
      <legend className="sr-only">{legend}</legend>
      {(['contenido', 'formalidades'] as const).map((g) => {
        const criteria = rubric.criteria.filter((c) => c.group === g)
        if (criteria.length === 0) return null
        const weight = criteria.reduce((s, c) => s + c.weight, 0)
        return (
          <div key={g}>
            <h3 className="text-lg font-bold text-brand-800">
              {groupName[g]} ({weight} puntos)
            </h3>
            <div className="mt-3 space-y-4">
              {criteria.map((c) => (
                <fieldset key={c.id} className="rounded-xl border border-slate-300 p-4">
                  <legend className="px-1 font-semibold text-slate-900">
                    {c.id}. {c.name} <span className="font-normal text-slate-600">(peso {c.weight})</span>
                  </legend>
                  <p className="mb-3 text-sm text-slate-700">{c.description}</p>
                  <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
                    {[4, 3, 2, 1].map((level) => {
                      const id = `${base}-${c.id}-${level}`
                      const checked = value[c.id] === level
                      return (
                        <label
                          key={level}
                          htmlFor={id}
                          className={`flex cursor-pointer gap-2 rounded-lg border p-3 text-sm has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400 ${
                            checked ? 'border-brand-700 bg-brand-50' : 'border-slate-300 hover:bg-slate-50'
                          }`}
                        >
                          <input
                            id={id}
                            type="radio"
                            name={`${base}-${c.id}`}
                            value={level}
                            checked={checked}
                            onChange={() => onChange({ ...value, [c.id]: level })}
                            className="mt-0.5 size-4 shrink-0"
                          />
                          <span>
                            <span className="block font-semibold">
                              {level} · {rubric.levels.find((l) => l.level === level)?.name}
                            </span>
                            <span className="text-slate-700">{c.descriptors[level - 1]}</span>
                          </span>
                        </label>
                      )
                    })}
                  </div>
                </fieldset>
              ))}
            </div>
          </div>
        )
      })}
      <p aria-live="polite" className="text-lg font-semibold text-slate-900">
        {complete ? `Nota resultante: ${formatScore(scoreOf(rubric, value))} / 10` : 'Califique todos los criterios para ver la nota.'}
      </p>
    </fieldset>
  )
}
