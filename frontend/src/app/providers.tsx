import { useEffect, useState, type ReactNode } from 'react'
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { sessionQueryKey } from '@/features/auth/api/get-session'
import { setStaleSessionHandler } from '@/lib/api-client'
import { createQueryClient } from '@/lib/query-client'

// watchSession refreshes the cached session whenever the server says it is
// out of date (a revoked or expired session, a finalized group; see
// api-client). The guards then act on the fresh answer: a guest has local
// storage cleared and lands on /inicio, a student without an active group
// is sent from /test to /auth/carreras. Several refusals at once share one
// refresh.
export function watchSession(client: QueryClient) {
  return setStaleSessionHandler(() => {
    void client.invalidateQueries({ queryKey: sessionQueryKey }, { cancelRefetch: false })
  })
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [client] = useState(createQueryClient)
  useEffect(() => watchSession(client), [client])
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>
}
