import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Group } from './types'

export type GroupReport = {
  students: number
  attempts: number
  finished: number
  graded: number
  passRate: number | null
  average: number | null
  byCriterion: { id: string; name: string; group: string; averageLevel: number; count: number }[]
  weeks: { week: string; start: string; attempts: number; average: number | null }[]
  inactive: { email: string; name: string; lastActivity: string | null }[]
}

export const getReport = (groupId = '') =>
  api.get<{ group: Group; report: GroupReport }>(`/api/admin/reports${groupId ? `?group=${encodeURIComponent(groupId)}` : ''}`)

export const reportQueryOptions = (groupId = '') =>
  queryOptions({ queryKey: ['admin', 'reports', groupId], queryFn: () => getReport(groupId) })

export function useReport(groupId = '') {
  return useQuery(reportQueryOptions(groupId))
}

export const gradesExportUrl = (groupId = '') => `/api/admin/reports/export${groupId ? `?group=${encodeURIComponent(groupId)}` : ''}`
