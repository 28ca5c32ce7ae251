import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { groupKeys, type GroupWithMembers } from './types'

export const getActiveGroupStudents = () => api.get<GroupWithMembers>('/api/admin/group/students')

export const activeGroupStudentsQueryOptions = () => queryOptions({ queryKey: groupKeys.activeStudents, queryFn: getActiveGroupStudents })

export function useActiveGroupStudents(enabled = true) {
  return useQuery({ ...activeGroupStudentsQueryOptions(), enabled })
}
