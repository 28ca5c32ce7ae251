import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { reportKeys, type Group } from './types'

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
  byArea: AreaReport[]
}

/** AreaReport is a group's finished attempts in one area of law (lowest average first). */
export type AreaReport = {
  area: string
  finished: number
  average: number | null
  passRate: number | null
  /** Attempts with a transcript: the key points below come from them. */
  heard: number
  missed: { case: string; text: string; missed: number; heard: number }[]
}

export const getReport = (groupId = '') =>
  api.get<{ group: Group; report: GroupReport }>(`/api/admin/reports${groupId ? `?group=${encodeURIComponent(groupId)}` : ''}`)

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
