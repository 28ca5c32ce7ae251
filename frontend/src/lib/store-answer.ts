import type { QueryClient, QueryKey } from '@tanstack/react-query'

/**
 * storeAnswer puts what the server answered to a change in the cache. A read
 * of the same key still on its way was sent before the change and may hold
 * the state before it: left alone, it would overwrite the answer when it
 * lands. It is cancelled first; TanStack Query then keeps the stored answer
 * (a manual setQueryData becomes the state a cancelled fetch reverts to).
 * A mutation that invalidates the key afterwards needs none of this: the
 * refetch cancels the read in flight.
 *
 * Only lazily loaded sections use it: it lives apart from lib/query-client,
 * which /inicio loads.
 */
export function storeAnswer<T>(qc: QueryClient, queryKey: QueryKey, data: T) {
  void qc.cancelQueries({ queryKey, exact: true })
  qc.setQueryData(queryKey, data)
}
