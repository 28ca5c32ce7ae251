import type { Difficulty } from '@/types/api'

// The group, case bank and configuration endpoints' shapes are declared in
// src/types/api.ts.
export type { BlueprintBounds, Bound, DegreeConfig, Group, GroupStatus, GroupWithMembers, ImportCasesResult, Member } from '@/types/api'

export const groupKeys = {
  all: ['admin', 'groups'] as const,
  active: ['admin', 'groups', 'active'] as const,
  activeStudents: ['admin', 'groups', 'active', 'students'] as const,
  history: ['admin', 'groups', 'history'] as const,
  one: (id: string) => ['admin', 'groups', 'one', id] as const,
  students: ['admin', 'students'] as const,
  search: (q: string) => ['admin', 'students', 'search', q] as const,
}

export const reportKeys = {
  one: (groupId: string) => ['admin', 'reports', groupId] as const,
}

// Case bank and configuration (docs/api-simulator.md, "Tutor side"): the
// filters of the case list.
export type CaseFilters = {
  degree: string
  area: string
  status: '' | 'active' | 'retired'
  difficulty: '' | Difficulty
  /** si: only reviewed cases; no: only cases still to review. */
  reviewed: '' | 'si' | 'no'
  q: string
}

export const caseKeys = {
  all: ['admin', 'cases'] as const,
  list: (f: CaseFilters) => ['admin', 'cases', 'list', f] as const,
  one: (id: string) => ['admin', 'cases', 'one', id] as const,
}

export const configKeys = {
  all: ['admin', 'config'] as const,
  one: (degree: string) => ['admin', 'config', degree] as const,
}
