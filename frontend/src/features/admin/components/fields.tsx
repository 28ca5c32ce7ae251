import { useId, type ReactNode } from 'react'

type Ids = { id: string; describedBy: string | undefined; invalid: boolean }

// Field is a labelled control with an optional hint and the errors the
// server reported for it, tied together for assistive technology.
export function Field({
  label,
  hint,
  errors,
  id: givenId,
  children,
}: {
  label: ReactNode
  hint?: ReactNode
  errors?: string[]
  id?: string
  children: (ids: Ids) => ReactNode
}) {
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
      {children({ id, describedBy, invalid: !!errId })}
      {hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-600">
          {hint}
        </p>
      )}
      <FieldErrors id={errId} errors={errors} />
    </div>
  )
}

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
