import { useId, type InputHTMLAttributes } from 'react'
import { focusRing, inputBase } from '@/components/ui/input'

const inputClass = `mt-1 block w-full max-w-sm ${inputBase} px-3 py-2 ${focusRing}`

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
