import { useState, type FormEvent } from 'react'
import { Link } from 'react-router-dom'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { PageSpinner } from '@/components/ui/Spinner'
import { Notice } from '@/components/ui/Notice'
import { ApiError } from '@/lib/api-client'
import { closeDialog, confirmAction, showError, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { formatDate } from '@/lib/format'
import { useActiveGroup } from '../api/get-active-group'
import { useGroupHistory } from '../api/get-groups'
import { useLoadGroup } from '../api/load-group'
import { useFinalizeGroup } from '../api/finalize-group'
import { useLtiCourses } from '../api/get-lti-courses'
import { AddStudentsPanel } from '../components/AddStudentsPanel'
import { CourseLoadCard, GroupCourseCard } from '../components/CoursePanels'
import { FileField, ROSTER_MAX_BYTES } from '../components/FileField'
import { GroupSummary, StatusBadge } from '../components/GroupSummary'
import { RosterHelp } from '../components/RosterHelp'
import { loadGroupWithDialogs } from '../lib/group-load-dialogs'
import { adminPaths } from '@/lib/paths'

export function GroupPage() {
  const active = useActiveGroup()
  // The courses the tutor opened the simulator from (LTI); the page works
  // without them when the request fails.
  const lti = useLtiCourses()
  if (active.isPending) return <PageSpinner />
  if (active.isError) return <Notice tone="error">No se pudo cargar el grupo. Intente de nuevo más tarde.</Notice>
  const group = active.data.group
  const courseOfGroup = group && lti.data?.group?.groupId === group.id ? lti.data.group : null
  const courses = lti.data?.courses ?? []
  return (
    <div className="space-y-6">
      {group ? (
        <>
          <Card title="Grupo activo" actions={<StatusBadge status={group.status} />}>
            <GroupSummary group={group} />
            <p className="mt-4">
              <Link to={adminPaths.students} className="font-semibold text-brand-700 underline">
                Ver estudiantes del grupo
              </Link>
            </p>
          </Card>
          {courseOfGroup && <GroupCourseCard info={courseOfGroup} />}
          <AddStudentsPanel groupDegree={group.carreraNombre || group.carrera} />
        </>
      ) : (
        <>
          {courses.length > 0 && <CourseLoadCard courses={courses} />}
          <LoadGroupCard />
        </>
      )}
      <FinalizeCard hasGroup={!!group} />
      <HistoryCard />
    </div>
  )
}

// LoadGroupCard is offered only while the tutor has no active group.
function LoadGroupCard() {
  const [file, setFile] = useState<File | null>(null)
  const load = useLoadGroup()
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!file) return void showError('Error', 'Seleccione un archivo .csv o .xlsx.')
    if (file.size > ROSTER_MAX_BYTES) return void showError('Error', 'El archivo supera el límite de 2 MB.')
    await loadGroupWithDialogs(() => load.mutateAsync(file))
  }
  return (
    <Card title="Cargar grupo">
      <p className="mb-4 text-slate-700">No tiene un grupo activo. Cargue la lista de sus estudiantes para habilitarles el simulador.</p>
      <form onSubmit={(e) => void submit(e)} className="space-y-4">
        <FileField label="Archivo del grupo" name="roster" file={file} onChange={setFile} />
        <RosterHelp />
        <Button type="submit" disabled={load.isPending}>
          Cargar grupo
        </Button>
      </form>
    </Card>
  )
}

function FinalizeCard({ hasGroup }: { hasGroup: boolean }) {
  const finalize = useFinalizeGroup()
  const onFinalize = async () => {
    if (hasGroup) {
      const ok = await confirmAction(
        '¿Finalizar el grupo?',
        'Los estudiantes dejarán de tener acceso al simulador. El grupo quedará en el historial, de solo lectura.',
        'Sí, finalizar',
      )
      if (!ok) return
      void showLoading('Finalizando grupo')
    }
    try {
      await finalize.mutateAsync()
      await showSuccess('Grupo finalizado', 'El grupo se ha finalizado correctamente')
    } catch (err) {
      if (err instanceof ApiError && err.code === 'no_active_group') return showError('Error', 'No hay grupo activo')
      await closeDialog()
      await showApiError(err)
    }
  }
  return (
    <Card title="Finalizar grupo">
      <p className="mb-4 text-slate-700">
        Al terminar el periodo, finalice el grupo: sus estudiantes dejan de acceder al simulador y podrá cargar un grupo nuevo.
      </p>
      <Button variant="danger" onClick={() => void onFinalize()} disabled={finalize.isPending}>
        Finalizar grupo
      </Button>
    </Card>
  )
}

function HistoryCard() {
  const history = useGroupHistory()
  const finished = history.data?.filter((g) => g.status === 'finalizado') ?? []
  return (
    <Card title="Historial de grupos">
      {history.isPending && <PageSpinner />}
      {!history.isPending && finished.length === 0 && <p className="text-slate-700">Aún no tiene grupos finalizados.</p>}
      <ul className="divide-y divide-slate-200">
        {finished.map((g) => (
          <li key={g.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
            <span>
              {g.carreraNombre} · {g.estudiantes.length} estudiante(s) · {formatDate(g.createdAt)} – {formatDate(g.finalizedAt)}
            </span>
            <Link to={adminPaths.pastGroup(g.id)} className="font-semibold text-brand-700 underline">
              Ver grupo
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  )
}
