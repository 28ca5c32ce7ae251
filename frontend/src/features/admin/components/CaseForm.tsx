import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { inputClass } from '@/components/ui/input'
import { Notice } from '@/components/ui/Notice'
import { Field, FieldErrors, TextField } from '@/components/ui/TextField'
import type { Degree } from '@/lib/get-degrees'
import { difficulties } from '@/lib/attempts'
import {
  areaSuggestions,
  caseFieldNames,
  linksAfterFollowUps,
  linksAfterKeyPoints,
  type CaseDraft,
  type CaseField,
} from '../lib/case-draft'
import { LegalBasesEditor } from './LegalBasesEditor'
import { ListEditor } from './ListEditor'

export type CaseProblems = Partial<Record<CaseField | '', string[]>>

export const DEMO_NOTICE = 'Contenido de demostración: revisar antes de usar en evaluación.'

// CaseForm edits every part of a case. The server validates; its problems
// come back through `problems` and are shown beside each field, with a
// summary at the top that takes the focus.
export function CaseForm({
  initial,
  degrees,
  problems,
  submitLabel,
  pending,
  onSubmit,
}: {
  initial: CaseDraft
  degrees: Degree[]
  problems: CaseProblems
  submitLabel: string
  pending: boolean
  onSubmit: (d: CaseDraft) => void
}) {
  const [d, setD] = useState(initial)
  const base = useId()
  const summaryRef = useRef<HTMLDivElement>(null)
  const set = <K extends keyof CaseDraft>(k: K, v: CaseDraft[K]) => setD((x) => ({ ...x, [k]: v }))
  // Removing a tribunal question or a key point keeps each link pointing at the same texts.
  const setFollowUps = (v: string[]) =>
    setD((x) => ({ ...x, followUps: v, followUpKeyPoints: linksAfterFollowUps(x.followUpKeyPoints, x.followUps, v) }))
  const setKeyPoints = (v: string[]) =>
    setD((x) => ({ ...x, keyPoints: v, followUpKeyPoints: linksAfterKeyPoints(x.followUpKeyPoints, x.keyPoints, v) }))
  const setLink = (i: number, k: number) =>
    setD((x) => ({ ...x, followUpKeyPoints: x.followUps.map((_, j) => (j === i ? k : (x.followUpKeyPoints[j] ?? 0))) }))
  const fieldId = (f: CaseField) => `${base}-${f}`

  const problemFields = (Object.keys(caseFieldNames) as CaseField[]).filter((f) => problems[f]?.length)
  const hasProblems = problemFields.length > 0 || !!problems['']?.length
  useEffect(() => {
    if (hasProblems) summaryRef.current?.focus()
  }, [problems, hasProblems])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit(d)
  }

  return (
    <form onSubmit={submit} className="space-y-6" noValidate>
      {hasProblems && (
        <div ref={summaryRef} tabIndex={-1} role="alert" className="rounded-xl border border-red-300 bg-red-50 p-4 text-red-900">
          <p className="font-semibold">El caso tiene datos incompletos o no válidos. Revise:</p>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {problemFields.map((f) => (
              <li key={f}>
                <a href={`#${fieldId(f)}`} className="font-medium underline">
                  {caseFieldNames[f]}
                </a>
                : {problems[f]!.join(' ')}
              </li>
            ))}
            {problems['']?.map((m, i) => (
              <li key={`x${i}`}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      {d.demo && <Notice tone="warn">{DEMO_NOTICE}</Notice>}

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Carrera" id={fieldId('degree')} errors={problems.degree}>
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              value={d.degreeId}
              onChange={(e) => set('degreeId', e.target.value)}
              aria-describedby={describedBy}
              aria-invalid={invalid || undefined}
              className={inputClass}
            >
              {degrees.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.nombre}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Área" id={fieldId('area')} errors={problems.area} hint="Elija una sugerida o escriba otra.">
          {({ id, describedBy, invalid }) => (
            <>
              <input
                id={id}
                list={`${base}-areas`}
                value={d.area}
                maxLength={80}
                onChange={(e) => set('area', e.target.value)}
                aria-describedby={describedBy}
                aria-invalid={invalid || undefined}
                className={inputClass}
              />
              <datalist id={`${base}-areas`}>
                {areaSuggestions.map((a) => (
                  <option key={a} value={a} />
                ))}
              </datalist>
            </>
          )}
        </Field>
      </div>

      <TextField
        label="Título"
        id={fieldId('title')}
        errors={problems.title}
        value={d.title}
        maxLength={200}
        onChange={(e) => set('title', e.target.value)}
      />

      <fieldset
        id={fieldId('difficulty')}
        tabIndex={-1}
        aria-describedby={`${base}-difficulty-hint${problems.difficulty?.length ? ` ${base}-difficulty-error` : ''}`}
      >
        <legend className="font-medium text-slate-800">Dificultad</legend>
        <p id={`${base}-difficulty-hint`} className="text-sm text-slate-600">
          En entrenamiento el estudiante puede elegirla; el simulacro la sortea según la combinación de la carrera (Configuración).
        </p>
        <div className="mt-2 flex flex-wrap gap-4">
          {difficulties.map((x) => (
            <label key={x.value} className="flex items-center gap-2">
              <input
                type="radio"
                name={`${base}-difficulty`}
                value={x.value}
                checked={d.difficulty === x.value}
                onChange={() => set('difficulty', x.value)}
                aria-invalid={problems.difficulty?.length ? true : undefined}
                className="size-5"
              />
              {x.label}
            </label>
          ))}
        </div>
        <FieldErrors id={`${base}-difficulty-error`} errors={problems.difficulty} />
      </fieldset>

      <Field
        label="Hechos del caso"
        id={fieldId('facts')}
        errors={problems.facts}
        hint="El relato que el estudiante lee al preparar (hasta 6000 caracteres)."
      >
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            rows={8}
            value={d.facts}
            maxLength={6000}
            onChange={(e) => set('facts', e.target.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            className={inputClass}
          />
        )}
      </Field>

      <div id={fieldId('questions')} tabIndex={-1}>
        <ListEditor
          legend="Preguntas del caso"
          hint="Lo que el estudiante debe resolver (de 1 a 5). Una por fila; Enter agrega otra."
          itemLabel="Pregunta"
          addLabel="Agregar pregunta"
          values={d.questions}
          onChange={(v) => set('questions', v)}
          errors={problems.questions}
        />
      </div>
      <div id={fieldId('followUps')} tabIndex={-1}>
        <ListEditor
          legend="Preguntas del tribunal"
          hint="Las repreguntas que el tribunal hace después de la exposición (2 o 3)."
          itemLabel="Pregunta del tribunal"
          addLabel="Agregar pregunta del tribunal"
          values={d.followUps}
          onChange={setFollowUps}
          errors={problems.followUps}
        />
      </div>
      <div id={fieldId('keyPoints')} tabIndex={-1}>
        <ListEditor
          legend="Puntos clave esperados"
          hint="Lo que una buena respuesta debe cubrir (de 1 a 12). El estudiante los ve al terminar."
          itemLabel="Punto clave"
          addLabel="Agregar punto clave"
          values={d.keyPoints}
          onChange={setKeyPoints}
          errors={problems.keyPoints}
          rows={1}
        />
      </div>
      <fieldset
        id={fieldId('followUpKeyPoints')}
        tabIndex={-1}
        aria-describedby={`${base}-links-hint${problems.followUpKeyPoints?.length ? ` ${base}-links-error` : ''}`}
      >
        <legend className="font-medium text-slate-800">{caseFieldNames.followUpKeyPoints}</legend>
        <p id={`${base}-links-hint`} className="text-sm text-slate-600">
          Para cada pregunta del tribunal, el punto clave que la responde. Se muestra al estudiante al terminar; conviene que toda pregunta
          tenga uno.
        </p>
        <FieldErrors id={`${base}-links-error`} errors={problems.followUpKeyPoints} />
        <ol className="mt-2 space-y-2">
          {d.followUps.map((f, i) => (
            <li key={i} className="grid gap-1 sm:grid-cols-2 sm:items-center sm:gap-3">
              <label htmlFor={`${base}-link-${i}`} className="text-sm text-slate-800">
                Respuesta a la pregunta del tribunal {i + 1}
                {f.trim() && <span className="block truncate text-slate-600">{f}</span>}
              </label>
              <select
                id={`${base}-link-${i}`}
                value={d.followUpKeyPoints[i] ?? 0}
                onChange={(e) => setLink(i, Number(e.target.value))}
                className={inputClass}
              >
                <option value={0}>Sin punto clave asignado</option>
                {d.keyPoints.map((k, j) =>
                  k.trim() ? (
                    <option key={j} value={j + 1}>
                      {j + 1}. {k.length > 80 ? `${k.slice(0, 80)}…` : k}
                    </option>
                  ) : null,
                )}
              </select>
            </li>
          ))}
        </ol>
      </fieldset>
      <div id={fieldId('legalBases')} tabIndex={-1}>
        <LegalBasesEditor values={d.legalBases} onChange={(v) => set('legalBases', v)} errors={problems.legalBases} />
      </div>

      <div className="grid gap-6 sm:grid-cols-2">
        <fieldset id={fieldId('status')} tabIndex={-1} aria-describedby={`${base}-status-hint`}>
          <legend className="font-medium text-slate-800">Estado</legend>
          <p id={`${base}-status-hint`} className="text-sm text-slate-600">
            Un caso retirado no se sortea; los intentos que ya lo usaron lo conservan.
          </p>
          <div className="mt-2 flex flex-wrap gap-4">
            {(
              [
                ['active', 'Activo'],
                ['retired', 'Retirado'],
              ] as const
            ).map(([v, label]) => (
              <label key={v} className="flex items-center gap-2">
                <input
                  type="radio"
                  name={`${base}-status`}
                  value={v}
                  checked={d.status === v}
                  onChange={() => set('status', v)}
                  className="size-5"
                />
                {label}
              </label>
            ))}
          </div>
          <FieldErrors errors={problems.status} />
        </fieldset>
        <div>
          <span className="block font-medium text-slate-800" aria-hidden="true">
            Contenido de demostración
          </span>
          <label className="mt-2 flex items-start gap-2">
            <input type="checkbox" checked={d.demo} onChange={(e) => set('demo', e.target.checked)} className="mt-0.5 size-5 shrink-0" />
            <span>Marcar como contenido de demostración (aún no revisado por docentes)</span>
          </label>
        </div>
      </div>

      <Button type="submit" disabled={pending} aria-describedby={pending ? `${base}-saving` : undefined}>
        {submitLabel}
      </Button>
      {pending && (
        <span id={`${base}-saving`} role="status" className="ml-3 text-slate-700">
          Guardando…
        </span>
      )}
    </form>
  )
}
