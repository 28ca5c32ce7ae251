import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { ActiveGroup } from '@/types/api'
import { groupKeys } from './types'

export const getActiveGroup = () => api.get<ActiveGroup>('/api/admin/group')

export const activeGroupQueryOptions = () => queryOptions({ queryKey: groupKeys.active, queryFn: getActiveGroup })

export function useActiveGroup() {
  return useQuery(activeGroupQueryOptions())
}
