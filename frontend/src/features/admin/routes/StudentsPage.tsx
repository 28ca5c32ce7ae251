import { Link } from 'react-router-dom'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { PageSpinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api-client'
import { useAppConfig } from '@/lib/config'
import { closeDialog, confirmAction, showError, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { formatDateTime } from '@/lib/format'
import { useActiveGroupStudents } from '../api/get-active-group-students'
import { resetLink, useIssuePasswordReset } from '../api/issue-password-reset'
import { useRemoveStudent } from '../api/remove-student'
import type { Member } from '../api/types'
import { chooseDelivery, showLinkToCopy } from '../lib/reset-dialogs'
import { InfoUnavailableNotice, MembersTable } from '../components/MembersTable'

// useResetPassword asks how to deliver a student's reset link (shown to
// copy, or e-mailed when the server can send mail) and issues it.
function useResetPassword() {
  const { data: config } = useAppConfig()
  const issue = useIssuePasswordReset()
  return async (m: Member) => {
    if (!m.userId) return
    const who = m.name || m.email
    const choice = await chooseDelivery(
      'Restablecer contraseña',
      `Se generará un enlace para que ${who} elija una nueva contraseña. Vale una hora, sirve una sola vez y cierra las sesiones abiertas del estudiante.`,
      'Generar enlace',
      config?.mail?.enabled ? 'Enviar por correo' : null,
    )
    if (!choice) return
    const delivery = choice === 'alternative' ? 'email' : 'link'
    issue.mutate(
      { studentId: m.userId, delivery },
      {
        onSuccess: (res) => {
          const until = formatDateTime(res.expiresAt)
          if (res.emailed) {
            void showSuccess('Enlace enviado', `Se envió el enlace a ${m.email}. Vence el ${until}.`)
          } else if (res.token) {
            void showLinkToCopy(
              'Enlace generado',
              `Entregue este enlace solo a ${who}. Vence el ${until} y sirve una sola vez.`,
              resetLink(res.token),
            )
          }
        },
        onError: (err) =>
          void showError(err instanceof ApiError && err.status === 429 ? 'Demasiados intentos' : 'No se generó el enlace', err.message),
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
