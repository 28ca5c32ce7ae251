import { useId, type InputHTMLAttributes } from 'react'

const inputClass =
  'mt-1 block w-full max-w-sm rounded-lg border border-slate-400 bg-white px-3 py-2 text-slate-900 focus:border-brand-600 focus:ring-2 focus:ring-brand-200 focus:outline-none'

// TextField is a labelled input with an optional hint tied to it.
export function TextField({ label, hint, ...input }: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId()
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-800">
        {label}
      </label>
      {hint && (
        <p id={`${id}-hint`} className="mt-0.5 text-sm text-slate-600">
          {hint}
        </p>
      )}
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} className={inputClass} {...input} />
    </div>
  )
}
