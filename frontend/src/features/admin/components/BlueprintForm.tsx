import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import type { Blueprint, Mode } from '@/types/api'
import { examLength } from '@/lib/attempts'
import { closeDialog, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { useUpdateBlueprint } from '../api/update-blueprint'
import type { Bound, DegreeConfig } from '../api/types'
import { formatDuration, joinSeconds, outOfBounds, rangeText, splitSeconds } from '../lib/duration'
import { inputClass } from '@/components/ui/input'
import { FieldErrors } from '@/components/ui/TextField'

type TimingKey = 'preparationSec' | 'presentationSec' | 'thinkSec' | 'answerSec' | 'closingSec'
type Parts = { min: string; sec: string }

// Long phases are edited in minutes and seconds; the think time, always
// short, in seconds.
const timings: { key: TimingKey; label: string; hint: string; unit: 'minsec' | 'sec' }[] = [
  { key: 'preparationSec', label: 'Preparación', hint: 'Lectura del caso y notas.', unit: 'minsec' },
  { key: 'presentationSec', label: 'Exposición', hint: 'Grabada; se detiene sola al llegar al límite.', unit: 'minsec' },
  { key: 'thinkSec', label: 'Tiempo para pensar cada pregunta', hint: 'Antes de cada respuesta al tribunal.', unit: 'sec' },
  { key: 'answerSec', label: 'Respuesta a cada pregunta', hint: 'Grabada.', unit: 'minsec' },
  { key: 'closingSec', label: 'Alegato de cierre', hint: 'Grabado.', unit: 'minsec' },
]

const toParts = (total: number, unit: 'minsec' | 'sec'): Parts => {
  if (unit === 'sec') return { min: '', sec: String(total) }
  const { min, sec } = splitSeconds(total)
  return { min: String(min), sec: String(sec) }
}

// BlueprintForm edits a degree's phase timings and default mode, within
// the bounds the server allows.
export function BlueprintForm({ config }: { config: DegreeConfig }) {
  const { blueprint, bounds } = config
  const [parts, setParts] = useState(
    () => Object.fromEntries(timings.map((t) => [t.key, toParts(blueprint[t.key], t.unit)])) as Record<TimingKey, Parts>,
  )
  const [questions, setQuestions] = useState(String(blueprint.questions))
  const [mode, setMode] = useState<Mode>(blueprint.defaultMode)
  const save = useUpdateBlueprint()
  const base = useId()

  const totals = Object.fromEntries(timings.map((t) => [t.key, joinSeconds(parts[t.key].min, parts[t.key].sec)])) as Record<
    TimingKey,
    number
  >
  const nQuestions = Number(questions.trim() || 'NaN')
  const questionsError = outOfBounds(Number.isInteger(nQuestions) ? nQuestions : Number.NaN, bounds.questions, 'count')

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    // The difficulty mix has its own form; saving the timings keeps it.
    const bp: Blueprint = {
      degreeId: config.degree.id,
      ...totals,
      questions: Math.trunc(nQuestions) || 0,
      defaultMode: mode,
      difficultyMix: blueprint.difficultyMix,
    }
    void showLoading('Guardando tiempos')
    try {
      await save.mutateAsync(bp)
      await showSuccess('Tiempos guardados', 'Los intentos que empiecen desde ahora usarán estos tiempos.')
    } catch (err) {
      await closeDialog()
      await showApiError(err)
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-6">
      <div className="grid gap-6 md:grid-cols-2">
        {timings.map((t) => (
          <DurationField
            key={t.key}
            label={t.label}
            hint={t.hint}
            unit={t.unit}
            bound={bounds[t.key]}
            parts={parts[t.key]}
            total={totals[t.key]}
            onChange={(p) => setParts((x) => ({ ...x, [t.key]: p }))}
          />
        ))}
        <div>
          <label htmlFor={`${base}-questions`} className="block font-medium text-slate-800">
            Preguntas del tribunal
          </label>
          <input
            id={`${base}-questions`}
            type="number"
            inputMode="numeric"
            required
            min={bounds.questions.min}
            max={bounds.questions.max}
            step={1}
            value={questions}
            onChange={(e) => setQuestions(e.target.value)}
            aria-describedby={`${base}-questions-hint${questionsError ? ` ${base}-questions-error` : ''}`}
            aria-invalid={questionsError ? true : undefined}
            className={`${inputClass} max-w-32`}
          />
          <p id={`${base}-questions-hint`} className="mt-1 text-sm text-slate-600">
            Cuántas preguntas hace el tribunal después de la exposición; {rangeText(bounds.questions, 'count')}. Cada caso trae 2 o 3: si
            trae menos, se hacen todas las del caso.
          </p>
          <FieldErrors id={`${base}-questions-error`} errors={questionsError ? [questionsError] : undefined} />
        </div>
      </div>

      <fieldset>
        <legend className="font-medium text-slate-800">Modo predeterminado</legend>
        <p className="text-sm text-slate-600">El modo que se propone al estudiante al empezar; puede elegir el otro.</p>
        <div className="mt-2 flex flex-wrap gap-4">
          {(
            [
              ['entrenamiento', 'Entrenamiento (con guía y pausas)'],
              ['simulacro', 'Simulacro (una sola toma, sin pausas)'],
            ] as const
          ).map(([v, label]) => (
            <label key={v} className="flex items-center gap-2">
              <input type="radio" name={`${base}-mode`} value={v} checked={mode === v} onChange={() => setMode(v)} className="size-5" />
              {label}
            </label>
          ))}
        </div>
      </fieldset>

      <p className="text-slate-700">
        Duración total de un intento:{' '}
        <strong>{formatDuration(examLength({ ...totals, questions: Number.isFinite(nQuestions) ? nQuestions : 0 }))}</strong> (sin contar la
        autoevaluación).
      </p>
      <Button type="submit" disabled={save.isPending}>
        Guardar tiempos
      </Button>
    </form>
  )
}

function DurationField({
  label,
  hint,
  unit,
  bound,
  parts,
  total,
  onChange,
}: {
  label: string
  hint: string
  unit: 'minsec' | 'sec'
  bound: Bound
  parts: Parts
  total: number
  onChange: (p: Parts) => void
}) {
  const base = useId()
  const error = outOfBounds(total, bound)
  const describedBy = `${base}-hint${error ? ` ${base}-error` : ''}`
  const rangeHint = `${hint} Permitido: ${rangeText(bound)}.`
  if (unit === 'sec') {
    return (
      <div>
        <label htmlFor={`${base}-sec`} className="block font-medium text-slate-800">
          {label} (segundos)
        </label>
        <input
          id={`${base}-sec`}
          type="number"
          inputMode="numeric"
          required
          min={bound.min}
          max={bound.max}
          step={1}
          value={parts.sec}
          onChange={(e) => onChange({ min: '', sec: e.target.value })}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          className={`${inputClass} max-w-32`}
        />
        <p id={`${base}-hint`} className="mt-1 text-sm text-slate-600">
          {rangeHint}
        </p>
        <FieldErrors id={`${base}-error`} errors={error ? [error] : undefined} />
      </div>
    )
  }
  return (
    <fieldset aria-describedby={describedBy}>
      <legend className="font-medium text-slate-800">{label}</legend>
      <div className="mt-1 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={`${base}-min`} className="block text-sm text-slate-700">
            Minutos
          </label>
          <input
            id={`${base}-min`}
            type="number"
            inputMode="numeric"
            min={0}
            max={Math.floor(bound.max / 60)}
            step={1}
            value={parts.min}
            onChange={(e) => onChange({ ...parts, min: e.target.value })}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            className={`${inputClass} w-28`}
          />
        </div>
        <div>
          <label htmlFor={`${base}-s`} className="block text-sm text-slate-700">
            Segundos
          </label>
          <input
            id={`${base}-s`}
            type="number"
            inputMode="numeric"
            min={0}
            max={59}
            step={1}
            value={parts.sec}
            onChange={(e) => onChange({ ...parts, sec: e.target.value })}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            className={`${inputClass} w-28`}
          />
        </div>
      </div>
      <p id={`${base}-hint`} className="mt-1 text-sm text-slate-600">
        {rangeHint}
      </p>
      <FieldErrors id={`${base}-error`} errors={error ? [error] : undefined} />
    </fieldset>
  )
}
