import { useId } from 'react'
import { inputBase } from '@/components/ui/input'

export const ROSTER_MAX_BYTES = 2 * 1024 * 1024

const ROSTER_ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
const ROSTER_HINT = 'Archivo CSV o Excel (.xlsx) de hasta 2 MB y 5000 filas.'

// FileField is a labelled file input, for roster files (.csv or .xlsx) unless told otherwise.
export function FileField({
  label,
  file,
  onChange,
  name,
  accept = ROSTER_ACCEPT,
  hint = ROSTER_HINT,
}: {
  label: string
  file: File | null
  onChange: (f: File | null) => void
  name: string
  accept?: string
  hint?: string
}) {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div>
      <label htmlFor={id} className="block font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="file"
        accept={accept}
        aria-describedby={hintId}
        onChange={(e) => onChange(e.target.files?.[0] ?? null)}
        className={`mt-1 block w-full ${inputBase} text-sm file:mr-3 file:border-0 file:bg-brand-700 file:px-4 file:py-2.5 file:font-semibold file:text-white hover:file:bg-brand-800`}
      />
      <p id={hintId} className="mt-1 text-sm text-slate-600">
        {file ? `Seleccionado: ${file.name}` : hint}
      </p>
    </div>
  )
}
