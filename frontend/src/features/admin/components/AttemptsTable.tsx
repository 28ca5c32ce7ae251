import { Link } from 'react-router-dom'
import { Table, rowClass } from '@/components/ui/Table'
import type { AttemptSummary } from '@/types/api'
import { modeName, statusName } from '@/lib/attempts'
import { formatDateTime, formatScore } from '@/lib/format'
import { adminPaths } from '@/lib/paths'

const score = (s: number | null) => (s === null ? '—' : `${formatScore(s)} / 10`)

/** actionOf names what the tutor can do with an attempt from a list. */
export function actionOf(a: Pick<AttemptSummary, 'status' | 'graded'>): string {
  if (a.status !== 'finished') return 'Ver'
  return a.graded ? 'Ver o recalificar' : 'Calificar'
}

// AttemptsTable lists attempts for the tutor: the grading queue (with the
// student, without status or tutor mark) or one student's attempts.
export function AttemptsTable({
  attempts,
  caption,
  variant,
}: {
  attempts: AttemptSummary[]
  caption: string
  variant: 'queue' | 'student'
}) {
  const queue = variant === 'queue'
  return (
    <Table
      caption={caption}
      columns={[
        ...(queue ? ['Estudiante'] : []),
        'Caso',
        'Área',
        'Modo',
        queue ? 'Terminado' : 'Fecha',
        ...(queue ? [] : ['Estado']),
        'Autoevaluación',
        ...(queue ? [] : ['Nota del tutor']),
        { label: 'Acción', hidden: true },
      ]}
      minWidth="min-w-[720px]"
    >
      {attempts.map((a) => {
        const who = a.student.displayName || a.student.mail
        const action = actionOf(a)
        return (
          <tr key={a.id} className={`${rowClass} align-top`}>
            {queue && (
              <td className="py-2 pr-4">
                <span className="block font-medium">{who}</span>
                {a.student.displayName && <span className="block text-xs break-all text-slate-600">{a.student.mail}</span>}
              </td>
            )}
            <td className="py-2 pr-4">{a.caseTitle}</td>
            <td className="py-2 pr-4">{a.area}</td>
            <td className="py-2 pr-4">{modeName(a.mode)}</td>
            <td className="py-2 pr-4 whitespace-nowrap">{formatDateTime(a.finishedAt ?? a.createdAt)}</td>
            {!queue && <td className="py-2 pr-4">{statusName(a.status)}</td>}
            <td className="py-2 pr-4 tabular-nums">{score(a.selfScore)}</td>
            {!queue && (
              <td className="py-2 pr-4 tabular-nums">{a.graded ? score(a.tutorScore) : a.status === 'finished' ? 'Sin calificar' : '—'}</td>
            )}
            <td className="py-2">
              <Link to={adminPaths.grade(a.id)} className="font-semibold whitespace-nowrap text-brand-700 underline">
                {action}
                <span className="sr-only">
                  {' '}
                  el intento de {who}: {a.caseTitle}
                </span>
              </Link>
            </td>
          </tr>
        )
      })}
    </Table>
  )
}
