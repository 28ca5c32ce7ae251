import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { difficulties } from '@/lib/attempts'
import type { Difficulty, DifficultyMix } from '@/types/api'
import { closeDialog, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { useUpdateBlueprint } from '../api/update-blueprint'
import type { DegreeConfig } from '../api/types'
import { inputClass } from '@/components/ui/input'
import { FieldErrors } from '@/components/ui/TextField'

// DifficultyMixForm edits how a Simulacro's draw weighs the difficulties:
// percentages that sum to 100, saved with the degree's blueprint.
export function DifficultyMixForm({ config }: { config: DegreeConfig }) {
  const [parts, setParts] = useState(
    () =>
      Object.fromEntries(difficulties.map((d) => [d.value, String(config.blueprint.difficultyMix[d.value])])) as Record<Difficulty, string>,
  )
  const save = useUpdateBlueprint()
  const base = useId()
  const values = Object.fromEntries(difficulties.map((d) => [d.value, Number(parts[d.value].trim() || 'NaN')])) as DifficultyMix
  const valid = difficulties.every((d) => Number.isInteger(values[d.value]) && values[d.value] >= 0 && values[d.value] <= 100)
  const sum = difficulties.reduce((acc, d) => acc + (Number.isFinite(values[d.value]) ? values[d.value] : 0), 0)
  const error = !valid
    ? 'Cada porcentaje debe ser un número entero entre 0 y 100.'
    : sum !== 100
      ? `Los porcentajes deben sumar 100 (suman ${sum}).`
      : ''

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    void showLoading('Guardando la combinación')
    try {
      await save.mutateAsync({ ...config.blueprint, degreeId: config.degree.id, difficultyMix: values })
      await showSuccess('Combinación guardada', 'Los simulacros que empiecen desde ahora sortearán los casos con esta combinación.')
    } catch (err) {
      await closeDialog()
      await showApiError(err)
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4">
      <fieldset aria-describedby={`${base}-hint${error ? ` ${base}-error` : ''}`}>
        <legend className="font-medium text-slate-800">Porcentaje de casos por dificultad</legend>
        <p id={`${base}-hint`} className="text-sm text-slate-600">
          En un simulacro se sortea primero la dificultad con estos porcentajes y luego un caso de esa dificultad que el estudiante no haya
          visto hace poco. Si no hay casos activos de una dificultad, su parte se reparte entre las demás. En entrenamiento el estudiante
          elige la dificultad.
        </p>
        <div className="mt-2 flex flex-wrap gap-4">
          {difficulties.map((d) => (
            <div key={d.value}>
              <label htmlFor={`${base}-${d.value}`} className="block text-sm font-medium text-slate-800">
                {d.label} (%)
              </label>
              <input
                id={`${base}-${d.value}`}
                type="number"
                inputMode="numeric"
                min={0}
                max={100}
                step={1}
                required
                value={parts[d.value]}
                onChange={(e) => setParts((x) => ({ ...x, [d.value]: e.target.value }))}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${base}-error` : undefined}
                className={`${inputClass} w-28`}
              />
            </div>
          ))}
        </div>
        <FieldErrors id={`${base}-error`} errors={error ? [error] : undefined} />
      </fieldset>
      <p className="text-slate-700">
        Total: <strong>{sum} %</strong>
      </p>
      <Button type="submit" disabled={save.isPending}>
        Guardar combinación
      </Button>
    </form>
  )
}
