import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { GroupReportResponse } from '@/types/api'
import { reportKeys } from './types'

export type { AreaReport, GroupReport } from '@/types/api'

export const getReport = (groupId = '') =>
  api.get<GroupReportResponse>(`/api/admin/reports${groupId ? `?group=${encodeURIComponent(groupId)}` : ''}`)

export const reportQueryOptions = (groupId = '') => queryOptions({ queryKey: reportKeys.one(groupId), queryFn: () => getReport(groupId) })

export function useReport(groupId = '') {
  return useQuery(reportQueryOptions(groupId))
}

/** exportUrl is the grades CSV, or with byArea the report's section by area of law. */
export const exportUrl = (groupId = '', byArea = false) => {
  const q = new URLSearchParams()
  if (groupId) q.set('group', groupId)
  if (byArea) q.set('by', 'area')
  const s = q.toString()
  return `/api/admin/reports/export${s ? `?${s}` : ''}`
}
