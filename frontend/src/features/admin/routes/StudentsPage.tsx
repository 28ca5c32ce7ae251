import { Link } from 'react-router-dom'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { PageSpinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api-client'
import { closeDialog, confirmAction, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { useActiveGroupStudents } from '../api/get-active-group-students'
import type { Member } from '../api/types'
import { useRemoveStudent } from '../api/remove-student'
import { InfoUnavailableNotice, MembersTable } from '../components/MembersTable'

export function StudentsPage() {
  const q = useActiveGroupStudents()
  const remove = useRemoveStudent()
  // Removing asks first; the student's attempts stay with the group.
  const onRemove = async (s: Member) => {
    const who = s.name || s.email
    const ok = await confirmAction(
      `¿Quitar a ${who} del grupo?`,
      'Dejará de tener acceso al simulador. Sus intentos se conservan en este grupo: podrá seguir viéndolos y calificándolos.',
      'Quitar',
    )
    if (!ok) return
    void showLoading('Quitando estudiante')
    try {
      await remove.mutateAsync(s.email)
      await showSuccess('Estudiante quitado', `${who} ya no pertenece al grupo.`)
    } catch (err) {
      await closeDialog()
      await showApiError(err)
    }
  }
  if (q.isPending) return <PageSpinner />
  if (q.isError) {
    if (q.error instanceof ApiError && q.error.code === 'no_active_group') {
      return (
        <Notice>
          No hay grupo activo.{' '}
          <Link to="/admin/grupo" className="font-semibold underline">
            Cargue un grupo
          </Link>{' '}
          para ver a sus estudiantes.
        </Notice>
      )
    }
    return <Notice tone="error">No se pudo cargar la lista de estudiantes.</Notice>
  }
  const { students, infoUnavailable, group } = q.data
  return (
    <Card title={`Estudiantes del grupo (${students.length})`}>
      {infoUnavailable && (
        <div className="mb-4">
          <InfoUnavailableNotice />
        </div>
      )}
      <p className="mb-4 text-slate-700">
        Nota y promedio usan la calificación del tutor cuando existe y, si no, la autoevaluación. Abra a un estudiante para ver todos sus intentos.
      </p>
      <MembersTable students={students} caption={`Estudiantes del grupo de ${group.carreraNombre}`} onRemove={(s) => void onRemove(s)} />
    </Card>
  )
}
