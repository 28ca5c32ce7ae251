import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { groupKeys, type Group, type GroupWithMembers } from './types'

export const getGroupHistory = () => api.get<Group[]>('/api/admin/groups')

export const groupHistoryQueryOptions = () => queryOptions({ queryKey: groupKeys.history, queryFn: getGroupHistory })

export function useGroupHistory() {
  return useQuery(groupHistoryQueryOptions())
}

export const getGroup = (id: string) => api.get<GroupWithMembers>(`/api/admin/groups/${encodeURIComponent(id)}`)

export function useGroup(id: string) {
  return useQuery({ queryKey: groupKeys.one(id), queryFn: () => getGroup(id) })
}
