import { useId, useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { ApiError } from '@/lib/api-client'
import { closeDialog, showError, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { useAddStudents, type AddStudentsInput } from '../api/add-students'
import { useSearchStudents } from '../api/search-students'
import { FileField, ROSTER_MAX_BYTES } from './FileField'
import { RosterHelp } from './RosterHelp'
import { inputBase } from '@/components/ui/input'

type Mode = 'file' | 'paste' | 'search'

const modes: [Mode, string][] = [
  ['file', 'Desde un archivo'],
  ['paste', 'Pegar correos'],
  ['search', 'Buscar registrados'],
]

export function splitEmails(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean)
}

// AddStudentsPanel adds students to the active group from a roster file,
// pasted emails, or a pick among registered students, with the dialogs that
// must not change (docs/product.md).
export function AddStudentsPanel({ groupDegree }: { groupDegree: string }) {
  const [mode, setMode] = useState<Mode>('file')
  const [file, setFile] = useState<File | null>(null)
  const [pasted, setPasted] = useState('')
  const [query, setQuery] = useState('')
  const [picked, setPicked] = useState<string[]>([])
  const add = useAddStudents()
  const baseId = useId()
  const search = useSearchStudents(query)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    let input: AddStudentsInput
    if (mode === 'file') {
      if (!file) return void showError('Error', 'Seleccione un archivo .csv o .xlsx.')
      if (file.size > ROSTER_MAX_BYTES) return void showError('Error', 'El archivo supera el límite de 2 MB.')
      input = { file }
    } else if (mode === 'paste') {
      const emails = splitEmails(pasted)
      if (emails.length === 0) return void showError('Error', 'Ingrese al menos un correo.')
      input = { emails }
    } else {
      if (picked.length === 0) return void showError('Error', 'Seleccione al menos un estudiante.')
      input = { emails: picked }
    }
    void showLoading('Agregando estudiantes')
    try {
      const res = await add.mutateAsync(input)
      setFile(null)
      setPasted('')
      setPicked([])
      await showSuccess(`${res.added} Estudiante(s) agregado(s)`, 'Los estudiantes se han agregado correctamente')
    } catch (err) {
      if (err instanceof ApiError && err.code === 'students_already_in_group')
        return showError('Error', 'Los estudiantes ya están en el grupo')
      await closeDialog()
      await showApiError(err)
    }
  }

  return (
    <Card title="Agregar estudiantes">
      <div role="radiogroup" aria-label="Cómo agregar estudiantes" className="mb-5 flex flex-wrap gap-2">
        {modes.map(([m, label]) => (
          <label
            key={m}
            className={`cursor-pointer rounded-full border px-4 py-2 text-sm font-medium has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400 ${
              mode === m ? 'border-brand-700 bg-brand-700 text-white' : 'border-slate-400 bg-white text-slate-800 hover:bg-slate-50'
            }`}
          >
            <input type="radio" name={`${baseId}-mode`} value={m} checked={mode === m} onChange={() => setMode(m)} className="sr-only" />
            {label}
          </label>
        ))}
      </div>
      <form onSubmit={(e) => void submit(e)} className="space-y-4">
        {mode === 'file' && (
          <>
            <FileField label="Archivo con estudiantes" name="students-file" file={file} onChange={setFile} />
            <RosterHelp groupDegree={groupDegree} />
          </>
        )}
        {mode === 'paste' && (
          <div>
            <label htmlFor={`${baseId}-paste`} className="block font-medium text-slate-800">
              Correos de los estudiantes
            </label>
            <textarea
              id={`${baseId}-paste`}
              rows={5}
              value={pasted}
              onChange={(e) => setPasted(e.target.value)}
              aria-describedby={`${baseId}-paste-hint`}
              className={`mt-1 block w-full ${inputBase} px-3 py-2 font-mono text-sm`}
            />
            <p id={`${baseId}-paste-hint`} className="mt-1 text-sm text-slate-600">
              Uno por línea, o separados por comas.
            </p>
          </div>
        )}
        {mode === 'search' && (
          <div>
            <label htmlFor={`${baseId}-search`} className="block font-medium text-slate-800">
              Buscar por nombre o correo
            </label>
            <input
              id={`${baseId}-search`}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              className={`mt-1 block w-full ${inputBase} px-3 py-2`}
            />
            {query.trim().length >= 2 && (
              <fieldset className="mt-3">
                <legend className="text-sm text-slate-700">
                  {search.data?.length ? 'Estudiantes registrados que no están en el grupo:' : 'No se encontraron estudiantes registrados.'}
                </legend>
                <ul className="mt-2 max-h-64 space-y-1 overflow-y-auto">
                  {search.data?.map((u) => (
                    <li key={u.id}>
                      <label className="flex items-center gap-3 rounded-md px-2 py-1.5 hover:bg-slate-50">
                        <input
                          type="checkbox"
                          className="size-5"
                          checked={picked.includes(u.mail)}
                          onChange={(e) => setPicked((p) => (e.target.checked ? [...p, u.mail] : p.filter((m) => m !== u.mail)))}
                        />
                        <span>
                          {u.displayName || u.mail} <span className="text-sm text-slate-600">({u.mail})</span>
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
            )}
            {picked.length > 0 && <p className="mt-2 text-sm text-slate-700">{picked.length} seleccionado(s).</p>}
          </div>
        )}
        <Button type="submit" disabled={add.isPending}>
          Agregar estudiantes
        </Button>
      </form>
    </Card>
  )
}
