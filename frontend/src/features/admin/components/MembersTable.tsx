import { useId, useState, type ReactNode } from 'react'
import { Table, rowClass } from '@/components/ui/Table'
import { Link } from 'react-router-dom'
import { Notice } from '@/components/ui/Notice'
import { formatDateTime, formatScore } from '@/lib/format'
import type { Member } from '../api/types'
import { trendText } from '../lib/students'
import { inputBase } from '@/components/ui/input'
import { adminPaths } from '@/lib/paths'

const trendStyle: Record<string, string> = { sube: 'text-green-800', baja: 'text-red-800', estable: 'text-slate-800' }
const trendArrow: Record<string, string> = { sube: '↑', baja: '↓', estable: '→' }

export function TrendLabel({ trend }: { trend: string }) {
  return (
    <span className={`font-medium whitespace-nowrap ${trendStyle[trend] ?? 'text-slate-600'}`}>
      {trendArrow[trend] && <span aria-hidden="true">{trendArrow[trend]} </span>}
      {trendText(trend)}
    </span>
  )
}

/** The notice shown above a student list whose profiles could not be read. */
export function InfoUnavailableNotice() {
  return (
    <Notice tone="warn">
      No se pudo cargar la información de los estudiantes; se muestran solo sus correos. «—» indica un dato no disponible.
    </Notice>
  )
}

// SignedIn says whether the student has ever signed in, and when last; "—"
// when the profiles could not be read (unknown is not "Aún no").
function SignedIn({ student }: { student: Member }) {
  if (student.signedIn === null) return <span title="Dato no disponible">—</span>
  if (!student.signedIn) return <>Aún no</>
  return (
    <>
      Sí
      {student.lastSignInAt && (
        <span className="block text-xs whitespace-nowrap text-slate-600">
          <span className="sr-only">, último ingreso: </span>
          {formatDateTime(student.lastSignInAt)}
        </span>
      )}
    </>
  )
}

// MembersTable lists a group's students with a filter box, their practice
// figures, and a link to each student's attempts (for those with a
// profile). Without a known name the link is on the email. With onReset,
// each student with a profile gets a button to reset their password; with
// onRemove, each row has a "Quitar" button (the active group's list).
export function MembersTable({
  students,
  caption,
  onReset,
  onRemove,
}: {
  students: Member[]
  caption: string
  onReset?: (m: Member) => void
  onRemove?: (m: Member) => void
}) {
  const [filter, setFilter] = useState('')
  const id = useId()
  const q = filter.trim().toLowerCase()
  const shown = q ? students.filter((s) => s.email.includes(q) || (s.name ?? '').toLowerCase().includes(q)) : students
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Filtrar por nombre o correo
      </label>
      <input
        id={id}
        type="search"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        className={`mt-1 mb-4 w-full max-w-sm ${inputBase} px-3 py-2`}
      />
      <Table
        caption={caption}
        columns={[
          'Nombre',
          'Correo',
          'Ha ingresado',
          'Intentos',
          'Terminados',
          'Última nota',
          'Promedio',
          'Tendencia',
          'Última actividad',
          ...(onReset || onRemove ? [{ label: 'Acciones', hidden: true, className: 'pl-4' }] : []),
        ]}
        minWidth="min-w-[960px]"
      >
        {shown.map((s) => (
          <tr key={s.email} className={rowClass}>
            <td className="py-2 pr-4">
              {s.name === null ? <span title="Dato no disponible">—</span> : <AttemptsLink id={s.userId}>{s.name || s.email}</AttemptsLink>}
            </td>
            <td className="py-2 pr-4 break-all">{s.name === null ? <AttemptsLink id={s.userId}>{s.email}</AttemptsLink> : s.email}</td>
            <td className="py-2 pr-4">
              <SignedIn student={s} />
            </td>
            <td className="py-2 pr-4 tabular-nums">{s.attempts}</td>
            <td className="py-2 pr-4 tabular-nums">{s.finished ?? 0}</td>
            <td className="py-2 pr-4 tabular-nums">{formatScore(s.lastScore)}</td>
            <td className="py-2 pr-4 tabular-nums">{formatScore(s.averageScore)}</td>
            <td className="py-2 pr-4">
              <TrendLabel trend={s.trend ?? ''} />
            </td>
            <td className="py-2">{s.lastActivity ? formatDateTime(s.lastActivity) : 'Sin actividad'}</td>
            {(onReset || onRemove) && (
              <td className="py-2 pl-4">
                <div className="flex gap-2">
                  {onReset && s.userId && (
                    <button
                      type="button"
                      onClick={() => onReset(s)}
                      aria-label={`Restablecer la contraseña de ${s.name || s.email}`}
                      className="rounded-lg border border-brand-700 px-3 py-1.5 text-sm font-semibold whitespace-nowrap text-brand-700 hover:bg-brand-50"
                    >
                      Restablecer
                    </button>
                  )}
                  {onRemove && (
                    <button
                      type="button"
                      onClick={() => onRemove(s)}
                      aria-label={`Quitar a ${s.name || s.email} del grupo`}
                      className="rounded-md border border-red-700 px-3 py-1 text-sm font-medium text-red-800 hover:bg-red-50"
                    >
                      Quitar
                    </button>
                  )}
                </div>
              </td>
            )}
          </tr>
        ))}
      </Table>
      {shown.length === 0 && <p className="mt-3 text-slate-700">No hay estudiantes que coincidan.</p>}
    </div>
  )
}

// AttemptsLink opens a student's attempts, named by user id; a student
// without a profile has made none, and gets plain text.
function AttemptsLink({ id, children }: { id?: string; children: ReactNode }) {
  if (!id) return <>{children}</>
  return (
    <Link to={adminPaths.student(id)} className="font-medium text-brand-700 underline">
      {children}
      <span className="sr-only">: ver intentos</span>
    </Link>
  )
}
