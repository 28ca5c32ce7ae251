import { useId } from 'react'
import { Button } from '@/components/ui/Button'
import type { DraftLegalBase } from '../lib/case-draft'
import { useRowFocus } from '../lib/use-row-focus'
import { inputClass } from '@/components/ui/input'
import { FieldErrors } from '@/components/ui/TextField'

// The canonical names of the server's norms catalogue (backend/internal/norms),
// as the bank stores them and the citation matcher reads them.
const normSuggestions = [
  'Constitución',
  'COIP',
  'Código Civil',
  'COGEP',
  'Código del Trabajo',
  'LOGJCC',
  'Código de la Niñez y Adolescencia',
  'COA',
  'COFJ',
  'LOSEP',
  'LOSNCP',
  'LOES',
  'LOEI',
  'COOTAD',
  'LOTAIP',
  'LOPDP',
  'LOIPEVM',
  'Código Tributario',
  'LORTI',
  'Código de Comercio',
  'Ley de Compañías',
  'COMF',
  'COPCI',
  'Ley Orgánica de Defensa del Consumidor',
  'Ley de Arbitraje y Mediación',
  'Ley de Inquilinato',
  'Ley Notarial',
  'Código Orgánico del Ambiente',
  'Ley de Recursos Hídricos',
  'Ley Orgánica de Movilidad Humana',
  'Ley de Seguridad Social',
  'Convención Americana sobre Derechos Humanos',
  'Pacto Internacional de Derechos Civiles y Políticos',
  'Convención sobre los Derechos del Niño',
  'Convención de Viena sobre el Derecho de los Tratados',
  'Convención sobre el Estatuto de los Refugiados',
  'Código de Derecho Internacional Privado',
]

const blank: DraftLegalBase = { norm: '', article: '', note: '' }

// LegalBasesEditor edits the expected legal bases: rows of norm, article
// and a one-line description the student reads after self-assessing.
export function LegalBasesEditor({
  values,
  onChange,
  errors,
}: {
  values: DraftLegalBase[]
  onChange: (v: DraftLegalBase[]) => void
  errors?: string[]
}) {
  const base = useId()
  const { refs, focusRow } = useRowFocus<HTMLInputElement>()
  const errId = errors?.length ? `${base}-error` : undefined
  const hintId = `${base}-hint`
  const set = (i: number, patch: Partial<DraftLegalBase>) => onChange(values.map((b, j) => (j === i ? { ...b, ...patch } : b)))
  const remove = (i: number) => {
    const next = values.filter((_, j) => j !== i)
    onChange(next.length ? next : [blank])
    focusRow(Math.max(0, Math.min(i, next.length - 1)))
  }
  return (
    <fieldset aria-describedby={[errId, hintId].filter(Boolean).join(' ')}>
      <legend className="font-medium text-slate-800">Bases legales esperadas</legend>
      <p id={hintId} className="text-sm text-slate-600">
        Norma y artículo, por ejemplo Constitución 76.7.l (artículo 76, numeral 7, literal l) o COIP 140; un artículo innumerado se escribe
        tras el artículo al que sigue: 125+2. La descripción, de una línea y hasta 240 caracteres, dice qué regula el artículo; el
        estudiante la ve al terminar, junto con el enlace al texto oficial de la norma.
      </p>
      <FieldErrors id={errId} errors={errors} />
      <datalist id={`${base}-norms`}>
        {normSuggestions.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <ol className="mt-2 space-y-2">
        {values.map((b, i) => (
          <li key={i} className="flex flex-wrap items-end gap-2 rounded-lg bg-slate-50 p-2">
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
            <div className="min-w-0 flex-[3_1_16rem]">
              <label htmlFor={`${base}-note-${i}`} className="block text-sm font-medium text-slate-800">
                Descripción {i + 1}
              </label>
              <input
                id={`${base}-note-${i}`}
                value={b.note}
                maxLength={240}
                aria-invalid={errId ? true : undefined}
                onChange={(e) => set(i, { note: e.target.value })}
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
          onChange([...values, blank])
          focusRow(values.length)
        }}
      >
        Agregar base legal
      </Button>
    </fieldset>
  )
}
