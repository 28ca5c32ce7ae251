import { useId } from 'react'
import { Button } from '@/components/ui/Button'
import { oneLine } from '../lib/case-draft'
import { useRowFocus } from '../lib/use-row-focus'
import { inputClass } from '@/components/ui/input'
import { FieldErrors } from '@/components/ui/TextField'

// ListEditor edits a list of one-line texts (questions, key points): one
// row per item, each removable, and a button to add another.
export function ListEditor({
  legend,
  hint,
  itemLabel,
  addLabel,
  values,
  onChange,
  errors,
  rows = 2,
}: {
  legend: string
  hint?: string
  itemLabel: string
  addLabel: string
  values: string[]
  onChange: (v: string[]) => void
  errors?: string[]
  rows?: number
}) {
  const base = useId()
  const { refs, focusRow } = useRowFocus<HTMLTextAreaElement>()
  const errId = errors?.length ? `${base}-error` : undefined
  const hintId = hint ? `${base}-hint` : undefined
  const set = (i: number, v: string) => onChange(values.map((x, j) => (j === i ? oneLine(v) : x)))
  const remove = (i: number) => {
    const next = values.filter((_, j) => j !== i)
    onChange(next.length ? next : [''])
    focusRow(Math.max(0, Math.min(i, next.length - 1)))
  }
  return (
    <fieldset aria-describedby={[errId, hintId].filter(Boolean).join(' ') || undefined}>
      <legend className="font-medium text-slate-800">{legend}</legend>
      {hint && (
        <p id={hintId} className="text-sm text-slate-600">
          {hint}
        </p>
      )}
      <FieldErrors id={errId} errors={errors} />
      <ol className="mt-2 space-y-2">
        {values.map((v, i) => (
          <li key={i} className="flex items-start gap-2">
            <label htmlFor={`${base}-${i}`} className="sr-only">
              {itemLabel} {i + 1}
            </label>
            <span aria-hidden="true" className="mt-2.5 w-6 shrink-0 text-right text-sm text-slate-600">
              {i + 1}.
            </span>
            <textarea
              id={`${base}-${i}`}
              ref={(el) => {
                refs.current[i] = el
              }}
              rows={rows}
              value={v}
              aria-invalid={errId ? true : undefined}
              onChange={(e) => set(i, e.target.value)}
              onKeyDown={(e) => {
                // An item is one line: Enter adds the next item instead.
                if (e.key === 'Enter' && !e.shiftKey) {
                  e.preventDefault()
                  onChange([...values.slice(0, i + 1), '', ...values.slice(i + 1)])
                  focusRow(i + 1)
                }
              }}
              className={`${inputClass} mt-0 min-w-0 flex-1`}
            />
            <Button
              variant="ghost"
              className="shrink-0 px-3"
              onClick={() => remove(i)}
              aria-label={`Quitar ${itemLabel.toLowerCase()} ${i + 1}`}
            >
              Quitar
            </Button>
          </li>
        ))}
      </ol>
      <Button
        variant="outline"
        className="mt-2"
        onClick={() => {
          onChange([...values, ''])
          focusRow(values.length)
        }}
      >
        {addLabel}
      </Button>
    </fieldset>
  )
}
