import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Notice } from '@/components/ui/Notice'
import type { CriterionGroup, Rubric } from '@/types/api'
import { closeDialog, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { useUpdateRubric } from '../api/update-rubric'
import {
  duplicateIds,
  move,
  newCriterion,
  toDraft,
  toRubricBody,
  weightStatus,
  weightSums,
  type CriterionDraft,
  type RubricDraft,
} from '../lib/rubric-draft'
import { inputClass } from '@/components/ui/input'
import { FieldErrors } from '@/components/ui/TextField'

const MAX_CRITERIA = 20
const levelNames: Record<number, string> = { 4: 'Excelente', 3: 'Satisfactorio', 2: 'En desarrollo', 1: 'Insuficiente' }

// RubricEditor edits a degree's rubric: criteria (code, group, name,
// weight, what it looks for and the four level descriptors) and the pass
// mark. Saving makes a new version; attempts keep the version they used.
export function RubricEditor({ degreeId, rubric }: { degreeId: string; rubric: Rubric }) {
  const [draft, setDraft] = useState<RubricDraft>(() => toDraft(rubric))
  const [fresh, setFresh] = useState<Set<string>>(new Set())
  const save = useUpdateRubric()
  const base = useId()
  const sums = weightSums(draft.criteria)
  const status = weightStatus(sums.total)
  const dups = duplicateIds(draft.criteria)
  const names = Object.fromEntries(rubric.levels.map((l) => [l.level, l.name])) as Record<number, string>

  const setCriteria = (f: (c: CriterionDraft[]) => CriterionDraft[]) => setDraft((d) => ({ ...d, criteria: f(d.criteria) }))
  const patch = (key: string, p: Partial<CriterionDraft>) => setCriteria((cs) => cs.map((c) => (c.key === key ? { ...c, ...p } : c)))
  const add = (group: CriterionGroup) => {
    const c = newCriterion(draft.criteria, group)
    setFresh((s) => new Set(s).add(c.key))
    setCriteria((cs) => [...cs, c])
    // Focus the new criterion's name once it is rendered.
    setTimeout(() => document.getElementById(`${base}-${c.key}-name`)?.focus(), 0)
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    void showLoading('Guardando rúbrica')
    try {
      const r = await save.mutateAsync({ degreeId, ...toRubricBody(draft) })
      await showSuccess(
        'Rúbrica guardada',
        `Se guardó la versión ${r.version}. Los intentos ya realizados conservan la rúbrica con la que se hicieron y se calificaron.`,
      )
    } catch (err) {
      await closeDialog()
      await showApiError(err)
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-6">
      <Notice>
        Versión vigente: <strong>{rubric.version}</strong>. Al guardar se crea la versión {rubric.version + 1}, que se aplica a los intentos
        que empiecen desde entonces. Los intentos ya realizados conservan la rúbrica con la que se hicieron y se calificaron.
      </Notice>

      <div>
        <label htmlFor={`${base}-pass`} className="block font-medium text-slate-800">
          Nota mínima para aprobar (sobre 10)
        </label>
        <input
          id={`${base}-pass`}
          type="number"
          inputMode="decimal"
          required
          min={0.1}
          max={10}
          step={0.1}
          value={draft.passScore}
          onChange={(e) => setDraft((d) => ({ ...d, passScore: e.target.value }))}
          className={`${inputClass} max-w-32`}
        />
      </div>

      <div
        aria-live="polite"
        className={`rounded-xl border p-4 ${status.ok ? 'border-green-300 bg-green-50 text-green-900' : 'border-red-300 bg-red-50 text-red-900'}`}
      >
        <p className="font-semibold">{status.text}</p>
        <p className="text-sm">
          Contenido: {sums.contenido} · Formalidades: {sums.formalidades} · Total: {sums.total} / 100
        </p>
        {dups.length > 0 && (
          <p className="mt-1 text-sm font-semibold">Códigos repetidos: {dups.join(', ')}. Cada criterio necesita un código propio.</p>
        )}
      </div>

      <ol className="space-y-4">
        {draft.criteria.map((c, i) => (
          <li key={c.key}>
            <CriterionEditor
              c={c}
              index={i}
              count={draft.criteria.length}
              idBase={`${base}-${c.key}`}
              levelNames={{ ...levelNames, ...names }}
              open={fresh.has(c.key)}
              duplicate={dups.includes(c.id.trim().toUpperCase())}
              onChange={(p) => patch(c.key, p)}
              onMove={(delta) => setCriteria((cs) => move(cs, i, delta))}
              onRemove={() => setCriteria((cs) => cs.filter((x) => x.key !== c.key))}
            />
          </li>
        ))}
      </ol>

      <div className="flex flex-wrap gap-2">
        <Button variant="outline" onClick={() => add('contenido')} disabled={draft.criteria.length >= MAX_CRITERIA}>
          Agregar criterio de contenido
        </Button>
        <Button variant="outline" onClick={() => add('formalidades')} disabled={draft.criteria.length >= MAX_CRITERIA}>
          Agregar criterio de formalidades
        </Button>
      </div>
      {draft.criteria.length >= MAX_CRITERIA && <p className="text-sm text-slate-700">La rúbrica admite hasta {MAX_CRITERIA} criterios.</p>}

      <div className="flex flex-wrap items-center gap-4 border-t border-slate-200 pt-4">
        <Button type="submit" disabled={save.isPending}>
          Guardar rúbrica
        </Button>
        <span className={`font-semibold ${status.ok ? 'text-green-800' : 'text-red-800'}`}>Total de pesos: {sums.total} / 100</span>
      </div>
    </form>
  )
}

function CriterionEditor({
  c,
  index,
  count,
  idBase,
  levelNames,
  open,
  duplicate,
  onChange,
  onMove,
  onRemove,
}: {
  c: CriterionDraft
  index: number
  count: number
  idBase: string
  levelNames: Record<number, string>
  open: boolean
  duplicate: boolean
  onChange: (p: Partial<CriterionDraft>) => void
  onMove: (delta: number) => void
  onRemove: () => void
}) {
  const n = index + 1
  return (
    <fieldset className="rounded-xl border border-slate-300 bg-white p-4">
      <legend className="px-1 font-semibold text-slate-900">
        Criterio {n}
        {c.name ? `: ${c.name}` : ''}
      </legend>
      <div className="grid gap-3 sm:grid-cols-[7rem_11rem_minmax(0,1fr)_6rem]">
        <div>
          <label htmlFor={`${idBase}-id`} className="block text-sm font-medium text-slate-800">
            Código
          </label>
          <input
            id={`${idBase}-id`}
            value={c.id}
            maxLength={8}
            required
            onChange={(e) => onChange({ id: e.target.value })}
            aria-invalid={duplicate || undefined}
            aria-describedby={duplicate ? `${idBase}-dup` : undefined}
            className={inputClass}
          />
          <FieldErrors id={`${idBase}-dup`} errors={duplicate ? ['Código repetido.'] : undefined} />
        </div>
        <div>
          <label htmlFor={`${idBase}-group`} className="block text-sm font-medium text-slate-800">
            Grupo
          </label>
          <select
            id={`${idBase}-group`}
            value={c.group}
            onChange={(e) => onChange({ group: e.target.value as CriterionGroup })}
            className={inputClass}
          >
            <option value="contenido">Contenido</option>
            <option value="formalidades">Formalidades</option>
          </select>
        </div>
        <div>
          <label htmlFor={`${idBase}-name`} className="block text-sm font-medium text-slate-800">
            Nombre
          </label>
          <input
            id={`${idBase}-name`}
            value={c.name}
            maxLength={160}
            required
            onChange={(e) => onChange({ name: e.target.value })}
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor={`${idBase}-weight`} className="block text-sm font-medium text-slate-800">
            Peso
          </label>
          <input
            id={`${idBase}-weight`}
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            step={1}
            required
            value={c.weight}
            onChange={(e) => onChange({ weight: e.target.value })}
            className={inputClass}
          />
        </div>
      </div>
      <details className="mt-3" open={open || undefined}>
        <summary className="cursor-pointer font-medium text-brand-700 underline-offset-2 hover:underline">
          Qué busca y descripción de los niveles
        </summary>
        <div className="mt-3 space-y-3">
          <div>
            <label htmlFor={`${idBase}-desc`} className="block text-sm font-medium text-slate-800">
              Qué busca el criterio
            </label>
            <textarea
              id={`${idBase}-desc`}
              rows={2}
              value={c.description}
              onChange={(e) => onChange({ description: e.target.value })}
              className={inputClass}
            />
          </div>
          <div className="grid gap-3 md:grid-cols-2">
            {[4, 3, 2, 1].map((level) => (
              <div key={level}>
                <label htmlFor={`${idBase}-l${level}`} className="block text-sm font-medium text-slate-800">
                  Nivel {level} · {levelNames[level]}
                </label>
                <textarea
                  id={`${idBase}-l${level}`}
                  rows={2}
                  maxLength={400}
                  value={c.descriptors[level - 1]}
                  onChange={(e) => {
                    const d = [...c.descriptors] as CriterionDraft['descriptors']
                    d[level - 1] = e.target.value
                    onChange({ descriptors: d })
                  }}
                  className={inputClass}
                />
              </div>
            ))}
          </div>
        </div>
      </details>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="ghost" className="px-3" onClick={() => onMove(-1)} disabled={index === 0} aria-label={`Subir el criterio ${n}`}>
          Subir
        </Button>
        <Button
          variant="ghost"
          className="px-3"
          onClick={() => onMove(1)}
          disabled={index === count - 1}
          aria-label={`Bajar el criterio ${n}`}
        >
          Bajar
        </Button>
        <Button
          variant="ghost"
          className="px-3 text-red-800 hover:bg-red-50"
          onClick={onRemove}
          disabled={count <= 1}
          aria-label={`Quitar el criterio ${n}`}
        >
          Quitar
        </Button>
      </div>
    </fieldset>
  )
}
