import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { LtiColumns } from '@/types/api'
import { ltiKeys } from './lti-types'

export const getLineItems = () => api.get<LtiColumns>('/api/admin/lti/line-items')

export const lineItemsQueryOptions = () => queryOptions({ queryKey: ltiKeys.lineItems, queryFn: getLineItems })

/** The columns of the active group's course; read only when asked for (enabled). */
export function useLineItems(enabled: boolean) {
  return useQuery({ ...lineItemsQueryOptions(), enabled })
}
