import { useEffect, useEffectEvent, useId, useState, type FormEvent } from 'react'
import { Link, useLocation, useSearchParams } from 'react-router-dom'
import { Button, buttonClass } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { Spinner } from '@/components/ui/Spinner'
import { difficulties, difficultyName } from '@/lib/attempts'
import type { Case, Difficulty } from '@/types/api'
import { useDegrees } from '@/lib/get-degrees'
import { closeDialog, confirmAction, showError, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { casesExportUrl } from '../api/export-cases'
import { useCases } from '../api/get-cases'
import { useImportCases } from '../api/import-cases'
import type { CaseFilters } from '../api/types'
import { useUpdateCase } from '../api/update-case'
import { DEMO_NOTICE } from '../components/CaseForm'
import { inputClass } from '@/components/ui/input'
import { FileField } from '../components/FileField'
import { ReviewNote } from '../components/ReviewNote'
import { areaSuggestions, toCaseBody, toCaseDraft } from '../lib/case-draft'
import { useDebounced } from '@/lib/use-debounced'
import { adminPaths } from '@/lib/paths'

const IMPORT_MAX_BYTES = 8 * 1024 * 1024

function readFilters(sp: URLSearchParams): CaseFilters {
  const status = sp.get('estado')
  const difficulty = sp.get('dificultad')
  const reviewed = sp.get('revision')
  return {
    degree: sp.get('carrera') ?? '',
    area: sp.get('area') ?? '',
    status: status === 'active' || status === 'retired' ? status : '',
    difficulty: difficulties.some((d) => d.value === difficulty) ? (difficulty as Difficulty) : '',
    reviewed: reviewed === 'si' || reviewed === 'no' ? reviewed : '',
    q: sp.get('q') ?? '',
  }
}

// CasesPage is /admin/casos: the case bank with filters, retire and
// reactivate, import and export.
export function CasesPage() {
  const [sp, setSp] = useSearchParams()
  const filters = readFilters(sp)
  const [text, setText] = useState(filters.q)
  const q = useDebounced(text.trim(), 300)
  const effective = { ...filters, q }
  const cases = useCases(effective)
  const degrees = useDegrees()
  const base = useId()
  const location = useLocation()

  const setFilter = (key: 'carrera' | 'area' | 'estado' | 'dificultad' | 'revision' | 'q', value: string) =>
    setSp(
      (prev) => {
        const next = new URLSearchParams(prev)
        if (value) next.set(key, value)
        else next.delete(key)
        return next
      },
      { replace: true },
    )
  // The search text reaches the address (and the query) once typing pauses.
  const syncSearch = useEffectEvent((text: string) => {
    if (text !== (sp.get('q') ?? '')) setFilter('q', text)
  })
  useEffect(() => syncSearch(q), [q])

  const list = cases.data ?? []
  const areas = [...new Set([...areaSuggestions, ...list.map((c) => c.area), ...(filters.area ? [filters.area] : [])])]
  const anyDemo = list.some((c) => c.demo)

  return (
    <div className="space-y-6">
      <Card
        title="Banco de casos"
        actions={
          <Link to={adminPaths.newCase} state={{ list: location.search }} className={buttonClass('primary')}>
            Nuevo caso
          </Link>
        }
      >
        <form
          role="search"
          aria-label="Filtrar casos"
          onSubmit={(e) => e.preventDefault()}
          className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
        >
          <div>
            <label htmlFor={`${base}-degree`} className="block font-medium text-slate-800">
              Carrera
            </label>
            <select
              id={`${base}-degree`}
              value={filters.degree}
              onChange={(e) => setFilter('carrera', e.target.value)}
              className={inputClass}
            >
              <option value="">Todas las carreras</option>
              {degrees.data?.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.nombre}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${base}-area`} className="block font-medium text-slate-800">
              Área
            </label>
            <select id={`${base}-area`} value={filters.area} onChange={(e) => setFilter('area', e.target.value)} className={inputClass}>
              <option value="">Todas las áreas</option>
              {areas.map((a) => (
                <option key={a} value={a}>
                  {a}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${base}-status`} className="block font-medium text-slate-800">
              Estado
            </label>
            <select
              id={`${base}-status`}
              value={filters.status}
              onChange={(e) => setFilter('estado', e.target.value)}
              className={inputClass}
            >
              <option value="">Todos</option>
              <option value="active">Activos</option>
              <option value="retired">Retirados</option>
            </select>
          </div>
          <div>
            <label htmlFor={`${base}-difficulty`} className="block font-medium text-slate-800">
              Dificultad
            </label>
            <select
              id={`${base}-difficulty`}
              value={filters.difficulty}
              onChange={(e) => setFilter('dificultad', e.target.value)}
              className={inputClass}
            >
              <option value="">Todas</option>
              {difficulties.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${base}-reviewed`} className="block font-medium text-slate-800">
              Revisión
            </label>
            <select
              id={`${base}-reviewed`}
              value={filters.reviewed}
              onChange={(e) => setFilter('revision', e.target.value)}
              className={inputClass}
            >
              <option value="">Todos</option>
              <option value="no">Sin revisar</option>
              <option value="si">Revisados</option>
            </select>
          </div>
          <div>
            <label htmlFor={`${base}-q`} className="block font-medium text-slate-800">
              Buscar
            </label>
            <input
              id={`${base}-q`}
              type="search"
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-describedby={`${base}-q-hint`}
              className={inputClass}
            />
            <p id={`${base}-q-hint`} className="mt-1 text-sm text-slate-600">
              En el título y los hechos.
            </p>
          </div>
        </form>

        <div className="mt-6">
          <p aria-live="polite" className="mb-3 flex items-center gap-2 text-slate-700">
            {cases.isPending ? <Spinner label="Cargando casos…" /> : `${list.length} caso(s)`}
            {cases.isFetching && !cases.isPending && <Spinner label="Actualizando…" />}
          </p>
          {cases.isError && <Notice tone="error">No se pudo cargar el banco de casos.</Notice>}
          {anyDemo && (
            <div className="mb-4">
              <Notice tone="warn">
                Los casos marcados <strong>Demo</strong> son contenido de demostración: revisar antes de usar en evaluación. Al abrir un
                caso puede marcarlo como revisado.
              </Notice>
            </div>
          )}
          {!cases.isPending && list.length === 0 && <p className="text-slate-700">No hay casos que coincidan con los filtros.</p>}
          <ul className="divide-y divide-slate-200" aria-label="Casos">
            {list.map((c) => (
              <CaseRow key={c.id} c={c} />
            ))}
          </ul>
        </div>
      </Card>
      <ImportExportCard degree={filters.degree} degreeName={degrees.data?.find((d) => d.id === filters.degree)?.nombre} />
    </div>
  )
}

function StatusBadge({ status }: { status: Case['status'] }) {
  return status === 'active' ? (
    <span className="rounded-full bg-green-100 px-2.5 py-0.5 text-sm font-semibold text-green-900">Activo</span>
  ) : (
    <span className="rounded-full bg-slate-200 px-2.5 py-0.5 text-sm font-semibold text-slate-800">Retirado</span>
  )
}

function DifficultyBadge({ difficulty }: { difficulty: Case['difficulty'] }) {
  if (!difficulty) return null
  return (
    <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-sm font-semibold text-brand-800 ring-1 ring-brand-200">
      {difficultyName(difficulty)}
    </span>
  )
}

export function DemoBadge() {
  return (
    <span title={DEMO_NOTICE} className="rounded-full bg-gold-300 px-2.5 py-0.5 text-sm font-semibold text-slate-900">
      Demo<span className="sr-only">: {DEMO_NOTICE}</span>
    </span>
  )
}

function CaseRow({ c }: { c: Case }) {
  const update = useUpdateCase()
  // The edit page comes back to the list as filtered now.
  const state = { list: useLocation().search }
  const retired = c.status === 'retired'
  const toggle = async () => {
    if (!retired) {
      const ok = await confirmAction(
        '¿Retirar el caso?',
        `«${c.title}» dejará de sortearse. Los intentos que ya lo usaron lo conservan y puede reactivarlo cuando quiera.`,
        'Sí, retirar',
      )
      if (!ok) return
    }
    void showLoading(retired ? 'Reactivando caso' : 'Retirando caso')
    try {
      await update.mutateAsync({ id: c.id!, body: { ...toCaseBody(toCaseDraft(c)), status: retired ? 'active' : 'retired' } })
      await showSuccess(
        retired ? 'Caso reactivado' : 'Caso retirado',
        retired ? 'El caso vuelve a sortearse.' : 'El caso ya no se sorteará.',
      )
    } catch (err) {
      await closeDialog()
      await showApiError(err)
    }
  }
  return (
    <li className="flex flex-wrap items-start justify-between gap-3 py-4">
      <div className="min-w-0 flex-1 basis-64">
        <h3 className="font-semibold text-slate-900">
          <Link to={adminPaths.case(c.id!)} state={state} className="text-brand-800 underline-offset-2 hover:underline">
            {c.title}
          </Link>
        </h3>
        <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <span>{c.area}</span>
          <span aria-hidden="true">·</span>
          <span>{c.degree}</span>
          <DifficultyBadge difficulty={c.difficulty} />
          <StatusBadge status={c.status} />
          {c.demo && <DemoBadge />}
          {c.review && <ReviewNote review={c.review} />}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">
        <Link to={adminPaths.case(c.id!)} state={state} className={buttonClass('outline', 'px-4')} aria-label={`Editar «${c.title}»`}>
          Editar
        </Link>
        <Button
          variant={retired ? 'outline' : 'ghost'}
          className="px-4"
          onClick={() => void toggle()}
          disabled={update.isPending}
          aria-label={`${retired ? 'Reactivar' : 'Retirar'} «${c.title}»`}
        >
          {retired ? 'Reactivar' : 'Retirar'}
        </Button>
      </div>
    </li>
  )
}

function ImportExportCard({ degree, degreeName }: { degree: string; degreeName?: string }) {
  const [file, setFile] = useState<File | null>(null)
  const [inputKey, setInputKey] = useState(0)
  const imp = useImportCases()
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!file) return void showError('Error', 'Seleccione un archivo .json o .csv.')
    if (file.size > IMPORT_MAX_BYTES) return void showError('Error', 'El archivo supera el límite de 8 MB.')
    void showLoading('Importando casos')
    try {
      const res = await imp.mutateAsync(file)
      setFile(null)
      setInputKey((k) => k + 1)
      await showSuccess('Casos importados', `Casos creados: ${res.created}. Casos actualizados: ${res.updated}.`)
    } catch (err) {
      await closeDialog()
      await showApiError(err, 'No se importó el archivo')
    }
  }
  const scope = degreeName ? `de ${degreeName}` : 'de todas las carreras'
  return (
    <Card title="Importar y exportar">
      <div className="grid gap-8 lg:grid-cols-2">
        <form onSubmit={(e) => void submit(e)} className="space-y-4">
          <h3 className="font-semibold text-slate-900">Importar casos</h3>
          <FileField
            key={inputKey}
            label="Archivo de casos"
            name="cases-file"
            file={file}
            onChange={setFile}
            accept=".json,.csv,application/json,text/csv"
            hint="Archivo .json o .csv en el formato de exportación, de hasta 8 MB."
          />
          <p className="text-sm text-slate-700">
            Los casos se identifican por carrera y título: los existentes se actualizan y los nuevos se crean. Si alguna fila tiene errores,
            no se importa nada.
          </p>
          <Button type="submit" disabled={imp.isPending}>
            Importar
          </Button>
        </form>
        <div className="space-y-4">
          <h3 className="font-semibold text-slate-900">Exportar casos</h3>
          <p className="text-sm text-slate-700">
            Descarga todos los casos {scope}, activos y retirados, para revisarlos o importarlos en otra instalación.
          </p>
          <div className="flex flex-wrap gap-2">
            <a href={casesExportUrl('json', degree)} download className={buttonClass('outline')}>
              Exportar JSON
            </a>
            <a href={casesExportUrl('csv', degree)} download className={buttonClass('outline')}>
              Exportar CSV
            </a>
          </div>
          <p className="text-sm text-slate-700">
            En CSV, las listas van una por línea dentro de la celda; las bases legales como «Norma: artículo | descripción» (por ejemplo
            «Constitución: 76.7.l | Deber de motivar las resoluciones»); la columna difficulty lleva basico, intermedio o avanzado, y
            followUpKeyPoints, una línea por pregunta del tribunal, el número del punto clave que la responde. Los archivos sin esas
            columnas también se importan.
          </p>
        </div>
      </div>
    </Card>
  )
}
