import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router-dom'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { PageSpinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api-client'
import { ensureConfig } from '@/lib/config'
import { closeDialog, confirmAction, showError, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { formatDateTime } from '@/lib/format'
import { useActiveGroupStudents } from '../api/get-active-group-students'
import { useIssuePasswordReset } from '../api/issue-password-reset'
import { useRemoveStudent } from '../api/remove-student'
import type { Member } from '../api/types'
import { InfoUnavailableNotice, MembersTable } from '../components/MembersTable'
import { adminPaths } from '@/lib/paths'

// useResetPassword e-mails a student a reset link. The link goes only to
// the student's own address: a tutor who saw it could choose the
// student's password and sign in as them.
function useResetPassword() {
  const qc = useQueryClient()
  const issue = useIssuePasswordReset()
  return async (m: Member) => {
    if (!m.userId) return
    const who = m.name || m.email
    const config = await ensureConfig(qc).catch((err: unknown) => void showApiError(err, 'Restablecer contraseña'))
    if (!config) return
    if (!config.mail.enabled) {
      void showError(
        'Restablecer contraseña',
        'El enlace para elegir una nueva contraseña solo se envía al correo del estudiante, y este servidor no tiene configurado el envío de correos. Pida al administrador que restablezca la contraseña.',
      )
      return
    }
    const ok = await confirmAction(
      'Restablecer contraseña',
      `Se enviará a ${m.email} un enlace para que ${who} elija una nueva contraseña. Vale una hora, sirve una sola vez y cierra las sesiones abiertas del estudiante.`,
      'Enviar por correo',
    )
    if (!ok) return
    issue.mutate(
      { studentId: m.userId },
      {
        onSuccess: (res) =>
          void showSuccess('Enlace enviado', `Se envió el enlace a ${m.email}. Vence el ${formatDateTime(res.expiresAt)}.`),
        onError: (err) =>
          void showError(err instanceof ApiError && err.status === 429 ? 'Demasiados intentos' : 'No se envió el enlace', err.message),
      },
    )
  }
}

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
  const reset = useResetPassword()
  if (q.isPending) return <PageSpinner />
  if (q.isError) {
    if (q.error instanceof ApiError && q.error.code === 'no_active_group') {
      return (
        <Notice>
          No hay grupo activo.{' '}
          <Link to={adminPaths.group} className="font-semibold underline">
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
        Nota y promedio usan la calificación del tutor cuando existe y, si no, la autoevaluación. Abra a un estudiante para ver todos sus
        intentos.
      </p>
      <MembersTable
        students={students}
        caption={`Estudiantes del grupo de ${group.carreraNombre}`}
        onReset={(m) => void reset(m)}
        onRemove={(s) => void onRemove(s)}
      />
    </Card>
  )
}
