import { Button } from '@/components/ui/Button'
import { Table, rowClass } from '@/components/ui/Table'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { Spinner } from '@/components/ui/Spinner'
import { showSuccess } from '@/lib/dialogs'
import { formatDateTime } from '@/lib/format'
import { useEndOtherSessions } from '../api/end-other-sessions'
import { useEndSession } from '../api/end-session'
import { useSessions } from '../api/get-sessions'
import type { SessionItem } from '../api/types'
import { showApiError } from './errors'

/** device names a session's browser and system, as far as they are known. */
export function device(s: Pick<SessionItem, 'browser' | 'os'>): string {
  if (s.browser && s.os) return `${s.browser} en ${s.os}`
  return s.browser || s.os || 'Dispositivo desconocido'
}

// SessionsCard lists the user's active sessions and ends any other one, or
// all the others at once.
export function SessionsCard() {
  const q = useSessions()
  const end = useEndSession()
  const endOthers = useEndOtherSessions()
  const others = (q.data ?? []).filter((s) => !s.current).length

  return (
    <Card title="Sesiones activas">
      <p className="mb-4 text-slate-700">
        Dispositivos donde su cuenta está abierta. Si no reconoce alguno, ciérrelo y cambie su contraseña.
      </p>
      {q.isPending && <Spinner label="Cargando sus sesiones…" />}
      {q.isError && <Notice tone="error">No se pudieron cargar sus sesiones. {q.error.message}</Notice>}
      {q.data && (
        <Table
          caption="Sus sesiones activas"
          columns={['Dispositivo', 'Dirección', 'Inicio', 'Última actividad', { label: 'Acción', hidden: true }]}
          minWidth="min-w-[640px]"
        >
          {q.data.map((s) => (
            <tr key={s.id} className={rowClass}>
              <td className="py-2 pr-4">
                {device(s)}
                {s.current && (
                  <span className="ml-2 rounded-full bg-brand-100 px-2 py-0.5 text-xs font-semibold text-brand-900">Esta sesión</span>
                )}
              </td>
              <td className="py-2 pr-4 break-all">{s.ip || '—'}</td>
              <td className="py-2 pr-4">{formatDateTime(s.createdAt)}</td>
              <td className="py-2 pr-4">{formatDateTime(s.lastSeenAt)}</td>
              <td className="py-2 text-right">
                {!s.current && (
                  <Button
                    variant="outline"
                    className="min-h-9 px-3 py-1 text-sm"
                    disabled={end.isPending}
                    aria-label={`Cerrar la sesión de ${device(s)} iniciada el ${formatDateTime(s.createdAt)}`}
                    onClick={() => end.mutate(s.id, { onError: (err) => void showApiError(err) })}
                  >
                    Cerrar
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {others > 0 && (
        <Button
          variant="outline"
          className="mt-4"
          disabled={endOthers.isPending}
          onClick={() =>
            endOthers.mutate(undefined, {
              onSuccess: ({ ended }) =>
                void showSuccess('Sesiones cerradas', ended === 1 ? 'Se cerró 1 sesión.' : `Se cerraron ${ended} sesiones.`),
              onError: (err) => void showApiError(err),
            })
          }
        >
          Cerrar las demás sesiones
        </Button>
      )}
    </Card>
  )
}
