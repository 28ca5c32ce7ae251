import { QueryClient, type QueryKey } from '@tanstack/react-query'
import { ApiError } from './api-client'

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx will not change by asking again.
        retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  })
}

/**
 * storeAnswer puts what the server answered to a change in the cache. A read
 * of the same key still on its way was sent before the change and may hold
 * the state before it: left alone, it would overwrite the answer when it
 * lands. It is cancelled first; TanStack Query then keeps the stored answer
 * (a manual setQueryData becomes the state a cancelled fetch reverts to).
 * A mutation that invalidates the key afterwards needs none of this: the
 * refetch cancels the read in flight.
 */
export function storeAnswer<T>(qc: QueryClient, queryKey: QueryKey, data: T) {
  void qc.cancelQueries({ queryKey, exact: true })
  qc.setQueryData(queryKey, data)
}
