import { formatDate } from '@/lib/format'
import type { Group } from '../api/types'

export function GroupSummary({ group }: { group: Group }) {
  const items: [string, string][] = [
    ['Carrera', group.carreraNombre || group.carrera],
    ['Departamento', group.departamento || '—'],
    ['Facultad', group.facultad || '—'],
    ['Modalidad', group.modalidad || '—'],
    ['Docente', group.docente.email],
    ['Estudiantes', String(group.estudiantes.length)],
    ['Creado', formatDate(group.createdAt)],
  ]
  if (group.finalizedAt) items.push(['Finalizado', formatDate(group.finalizedAt)])
  return (
    <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-4">
      {items.map(([k, v]) => (
        <div key={k}>
          <dt className="text-sm text-slate-600">{k}</dt>
          <dd className="font-semibold break-words text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  )
}

export function StatusBadge({ status }: { status: Group['status'] }) {
  return status === 'activo' ? (
    <span className="rounded-full bg-green-100 px-3 py-1 text-sm font-semibold text-green-900">Activo</span>
  ) : (
    <span className="rounded-full bg-slate-200 px-3 py-1 text-sm font-semibold text-slate-800">Finalizado</span>
  )
}
