import { useSyncExternalStore } from 'react'
import { serverBusyWaiting, subscribeServerBusy } from '@/lib/server-busy'

export const serverBusyText = 'El servidor está ocupado; su solicitud se enviará de nuevo en unos segundos.'

// ServerBusyNotice says, calmly, that a request is waiting because the
// server asked to come back in a moment: nothing was lost and nothing is
// for the user to do.
export function ServerBusyNotice() {
  const waiting = useSyncExternalStore(subscribeServerBusy, serverBusyWaiting, serverBusyWaiting)
  return (
    <div role="status" aria-live="polite">
      {waiting > 0 && (
        <p className="border-b border-slate-300 bg-slate-50 px-4 py-2 text-center text-sm text-slate-800" data-testid="server-busy">
          {serverBusyText}
        </p>
      )}
    </div>
  )
}
