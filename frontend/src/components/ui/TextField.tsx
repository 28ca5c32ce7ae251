import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import { inputClass } from './input'

/** What a Field hands its control so that the label, hint and errors reach it. */
export type FieldIds = { id: string; describedBy: string | undefined; invalid: boolean }

type FieldProps = {
  label: ReactNode
  /** A short help text under the label, read with the control. */
  hint?: ReactNode
  /** The server's problems with this field, shown under it; they mark the control invalid. */
  errors?: string[]
  /** The control's id, when a link elsewhere (an error summary) points at it. */
  id?: string
}

/**
 * Field is every labelled form control in the app: a label, an optional
 * hint, the control the caller draws (an input, a select, a textarea) and
 * the errors the server reported for it. The hint and the errors are tied
 * to the control with aria-describedby, and errors set aria-invalid, so a
 * screen reader reads them when the control takes the focus.
 */
export function Field({ label, hint, errors, id: givenId, children }: FieldProps & { children: (ids: FieldIds) => ReactNode }) {
  const auto = useId()
  const id = givenId ?? auto
  const hintId = hint ? `${id}-hint` : undefined
  const errId = errors?.length ? `${id}-error` : undefined
  const describedBy = [errId, hintId].filter(Boolean).join(' ') || undefined
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-800">
        {label}
      </label>
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      {children({ id, describedBy, invalid: !!errId })}
      <FieldErrors id={errId} errors={errors} />
    </div>
  )
}

/** TextField is a Field whose control is a text input; other props go to the input. */
export function TextField({
  label,
  hint,
  errors,
  id,
  className = inputClass,
  ...input
}: FieldProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'aria-describedby' | 'aria-invalid'>) {
  return (
    <Field label={label} hint={hint} errors={errors} id={id}>
      {(ids) => (
        <input id={ids.id} aria-describedby={ids.describedBy} aria-invalid={ids.invalid || undefined} className={className} {...input} />
      )}
    </Field>
  )
}

/** FieldErrors lists the server's problems with a field or a group of fields. */
export function FieldErrors({ id, errors }: { id?: string; errors?: string[] }) {
  if (!errors?.length) return null
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm font-medium text-red-800">
      {errors.map((e, i) => (
        <li key={i}>{e}</li>
      ))}
    </ul>
  )
}
