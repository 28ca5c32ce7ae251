import { useState } from 'react'
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { PageSpinner } from '@/components/ui/Spinner'
import { useDegrees, type Degree } from '@/lib/get-degrees'
import { ApiError } from '@/lib/api-client'
import { Button } from '@/components/ui/Button'
import type { Case } from '@/types/api'
import { closeDialog, confirmAction, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { formatDateTime } from '@/lib/format'
import { useCase } from '../api/get-case'
import { useCreateCase } from '../api/create-case'
import { useReviewCase } from '../api/review-case'
import { useUpdateCase } from '../api/update-case'
import { CaseForm, type CaseProblems } from '../components/CaseForm'
import { emptyCaseDraft, problemsByField, toCaseBody, toCaseDraft, type CaseDraft } from '../lib/case-draft'
import { ReviewNote } from '../components/ReviewNote'
import { adminPaths } from '@/lib/paths'

// listPath is the case list as the tutor left it (its filters), when known.
function useListPath() {
  const state = useLocation().state as { list?: unknown } | null
  const search = typeof state?.list === 'string' && state.list.startsWith('?') ? state.list : ''
  return `${adminPaths.cases}${search}`
}

function BackLink() {
  return (
    <p>
      <Link to={useListPath()} className="font-semibold text-brand-700 underline">
        ← Volver al banco de casos
      </Link>
    </p>
  )
}

// problemsOf turns the server's refusal into per-field problems, or null
// when it is not about the fields (then a dialog tells it).
function problemsOf(err: unknown): CaseProblems | null {
  if (!(err instanceof ApiError)) return null
  if (err.code === 'invalid_case') return problemsByField(err.details)
  if (err.code === 'case_title_taken') return { title: [err.message] }
  if (err.code === 'degree_not_found') return { degree: [err.message] }
  return null
}

function useSaveCase(id: string | undefined) {
  const create = useCreateCase()
  const update = useUpdateCase()
  const navigate = useNavigate()
  const listPath = useListPath()
  const [problems, setProblems] = useState<CaseProblems>({})
  // No progress dialog here: closing one hands the focus back to the
  // button, and a refusal must leave it on the list of problems instead.
  const save = async (d: CaseDraft) => {
    try {
      const body = toCaseBody(d)
      if (id) await update.mutateAsync({ id, body })
      else await create.mutateAsync(body)
      setProblems({})
      await showSuccess(
        id ? 'Caso guardado' : 'Caso creado',
        id ? 'Los cambios del caso se guardaron.' : 'El caso se agregó al banco de casos.',
      )
      navigate(listPath)
    } catch (err) {
      const p = problemsOf(err)
      if (p) setProblems(p)
      else await showApiError(err)
    }
  }
  return { save, problems, pending: create.isPending || update.isPending }
}

// ReviewCard shows whether a tutor reviewed the case's content and lets
// the signed-in tutor mark it reviewed. Marking reloads the form from the
// server, so unsaved edits should be saved first (the card says so).
function ReviewCard({ c }: { c: Case }) {
  const review = useReviewCase()
  const mark = async () => {
    const ok = await confirmAction(
      '¿Marcar el caso como revisado?',
      'Confirme que revisó los hechos, las preguntas, los puntos clave y las bases legales del caso. Dejará de mostrarse como contenido de demostración y quedará registrado su nombre.',
      'Sí, marcar como revisado',
    )
    if (!ok) return
    void showLoading('Marcando el caso como revisado')
    try {
      await review.mutateAsync(c.id!)
      await showSuccess('Caso revisado', 'El caso quedó marcado como revisado por usted.')
    } catch (err) {
      await closeDialog()
      await showApiError(err)
    }
  }
  return (
    <Card title="Revisión docente">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-slate-800">
          {c.review ? <ReviewNote review={c.review} /> : 'Este caso aún no ha sido revisado por un docente.'}
        </p>
        <Button variant={c.review ? 'outline' : 'primary'} onClick={() => void mark()} disabled={review.isPending}>
          {c.review ? 'Marcar de nuevo como revisado' : 'Marcar como revisado'}
        </Button>
      </div>
      <p className="mt-2 text-sm text-slate-600">Guarde antes sus cambios: al marcarlo, el formulario se recarga con el caso guardado.</p>
    </Card>
  )
}

// NewCasePage is /admin/casos/nuevo.
export function NewCasePage() {
  const degrees = useDegrees()
  const { save, problems, pending } = useSaveCase(undefined)
  if (degrees.isPending) return <PageSpinner />
  if (degrees.isError) return <Notice tone="error">No se pudieron cargar las carreras.</Notice>
  return (
    <div className="space-y-6">
      <BackLink />
      <Card title="Nuevo caso">
        <CaseForm
          initial={emptyCaseDraft(degrees.data[0]?.id ?? '')}
          degrees={degrees.data}
          problems={problems}
          submitLabel="Crear caso"
          pending={pending}
          onSubmit={(d) => void save(d)}
        />
      </Card>
    </div>
  )
}

// EditCasePage is /admin/casos/:id.
export function EditCasePage() {
  const { id = '' } = useParams()
  const degrees = useDegrees()
  const c = useCase(id)
  const { save, problems, pending } = useSaveCase(id)
  if (degrees.isPending || c.isPending) return <PageSpinner />
  if (c.isError)
    return (
      <div className="space-y-6">
        <BackLink />
        <Notice tone="error">No se encontró el caso.</Notice>
      </div>
    )
  const list: Degree[] = degrees.data ?? [{ id: c.data.degreeId, nombre: c.data.degree }]
  return (
    <div className="space-y-6">
      <BackLink />
      <ReviewCard c={c.data} />
      <Card title="Editar caso">
        {c.data.updatedAt && <p className="-mt-2 mb-4 text-sm text-slate-600">Última modificación: {formatDateTime(c.data.updatedAt)}</p>}
        <CaseForm
          key={`${c.data.id}-${c.data.review?.at ?? ''}`}
          initial={toCaseDraft(c.data)}
          degrees={list}
          problems={problems}
          submitLabel="Guardar cambios"
          pending={pending}
          onSubmit={(d) => void save(d)}
        />
      </Card>
    </div>
  )
}
