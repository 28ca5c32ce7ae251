import { useEffect, useId, useRef, useState } from 'react'
import { Button } from '@/components/ui/Button'
import type { LegalBase } from '@/features/attempts/api/types'
import { FieldErrors, inputClass } from './fields'

// Norm names as the demo bank and the citation matcher spell them.
const normSuggestions = [
  'Constitución',
  'COIP',
  'Código Civil',
  'COGEP',
  'Código del Trabajo',
  'LOGJCC',
  'Código de la Niñez y Adolescencia',
  'COA',
  'LOSNCP',
  'LOSEP',
  'LOES',
]

// LegalBasesEditor edits the expected legal bases: rows of norm + article.
export function LegalBasesEditor({ values, onChange, errors }: { values: LegalBase[]; onChange: (v: LegalBase[]) => void; errors?: string[] }) {
  const base = useId()
  const [focusIndex, setFocusIndex] = useState<number | null>(null)
  const refs = useRef<(HTMLInputElement | null)[]>([])
  useEffect(() => {
    if (focusIndex !== null) {
      refs.current[focusIndex]?.focus()
      setFocusIndex(null)
    }
  }, [focusIndex])
  const errId = errors?.length ? `${base}-error` : undefined
  const hintId = `${base}-hint`
  const set = (i: number, patch: Partial<LegalBase>) => onChange(values.map((b, j) => (j === i ? { ...b, ...patch } : b)))
  const remove = (i: number) => {
    const next = values.filter((_, j) => j !== i)
    onChange(next.length ? next : [{ norm: '', article: '' }])
    setFocusIndex(Math.max(0, Math.min(i, next.length - 1)))
  }
  return (
    <fieldset aria-describedby={[errId, hintId].filter(Boolean).join(' ')}>
      <legend className="font-medium text-slate-800">Bases legales esperadas</legend>
      <p id={hintId} className="text-sm text-slate-600">
        Norma y artículo, por ejemplo Constitución 76.7.l (artículo 76, numeral 7, literal l) o COIP 140.
      </p>
      <FieldErrors id={errId} errors={errors} />
      <datalist id={`${base}-norms`}>
        {normSuggestions.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <ol className="mt-2 space-y-2">
        {values.map((b, i) => (
          <li key={i} className="flex flex-wrap items-end gap-2 rounded-lg bg-slate-50 p-2 sm:flex-nowrap">
            <div className="min-w-0 flex-[2_1_12rem]">
              <label htmlFor={`${base}-norm-${i}`} className="block text-sm font-medium text-slate-800">
                Norma {i + 1}
              </label>
              <input
                id={`${base}-norm-${i}`}
                ref={(el) => {
                  refs.current[i] = el
                }}
                list={`${base}-norms`}
                value={b.norm}
                aria-invalid={errId ? true : undefined}
                onChange={(e) => set(i, { norm: e.target.value })}
                className={inputClass}
              />
            </div>
            <div className="min-w-0 flex-[1_1_6rem]">
              <label htmlFor={`${base}-art-${i}`} className="block text-sm font-medium text-slate-800">
                Artículo {i + 1}
              </label>
              <input
                id={`${base}-art-${i}`}
                value={b.article}
                inputMode="text"
                autoCapitalize="off"
                aria-invalid={errId ? true : undefined}
                onChange={(e) => set(i, { article: e.target.value })}
                className={inputClass}
              />
            </div>
            <Button variant="ghost" className="shrink-0 px-3" onClick={() => remove(i)} aria-label={`Quitar base legal ${i + 1}`}>
              Quitar
            </Button>
          </li>
        ))}
      </ol>
      <Button
        variant="outline"
        className="mt-2"
        onClick={() => {
          onChange([...values, { norm: '', article: '' }])
          setFocusIndex(values.length)
        }}
      >
        Agregar base legal
      </Button>
    </fieldset>
  )
}
