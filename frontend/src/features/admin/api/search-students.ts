import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { User } from '@/features/auth/api/get-session'
import { groupKeys } from './types'

export const searchStudents = (q: string) => api.get<User[]>(`/api/admin/students/search?q=${encodeURIComponent(q)}`)

export const searchStudentsQueryOptions = (q: string) =>
  queryOptions({
    queryKey: groupKeys.search(q),
    queryFn: () => searchStudents(q),
    enabled: q.trim().length >= 2,
    placeholderData: keepPreviousData,
  })

export function useSearchStudents(q: string) {
  return useQuery(searchStudentsQueryOptions(q))
}
