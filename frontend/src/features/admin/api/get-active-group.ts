import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { groupKeys, type Group } from './types'

export const getActiveGroup = () => api.get<{ group: Group | null }>('/api/admin/group')

export const activeGroupQueryOptions = () => queryOptions({ queryKey: groupKeys.active, queryFn: getActiveGroup })

export function useActiveGroup() {
  return useQuery(activeGroupQueryOptions())
}
