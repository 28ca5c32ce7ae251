import type { Blueprint, Difficulty, Rubric } from '@/types/api'

// Shapes of the group endpoints. The group's Spanish field names are kept on
// purpose (docs/glossary.md).
export type GroupStatus = 'activo' | 'finalizado'

export type Group = {
  id: string
  carrera: string
  carreraNombre: string
  departamento: string
  facultad: string
  modalidad: string
  docente: { email: string }
  estudiantes: { email: string; attempts: unknown[] }[]
  status: GroupStatus
  createdAt: string
  finalizedAt: string | null
}

export type Member = {
  email: string
  /** null when the students' profiles could not be read (infoUnavailable). */
  name: string | null
  /** Whether the student has ever signed in; null when unknown. */
  signedIn: boolean | null
  lastSignInAt: string | null
  userId?: string
  addedAt: string
  attempts: number
  finished: number
  lastActivity: string | null
  lastScore: number | null
  averageScore: number | null
  /** sube | baja | estable, or "" with fewer than two marks. */
  trend: string
}

/**
 * infoUnavailable: the profiles could not be read, so the list has the
 * emails alone (docs/product.md, "The group") and every name and signedIn
 * is null.
 */
export type GroupWithMembers = { group: Group; students: Member[]; infoUnavailable: boolean }

export type RosterProblem = { row: number; column: string; message: string }

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

// Case bank and configuration (docs/api-simulator.md, "Tutor side").
export type CaseFilters = {
  degree: string
  area: string
  status: '' | 'active' | 'retired'
  difficulty: '' | Difficulty
  /** si: only reviewed cases; no: only cases still to review. */
  reviewed: '' | 'si' | 'no'
  q: string
}

export type ImportCasesResult = { created: number; updated: number }

export type Bound = { min: number; max: number }

export type BlueprintBounds = {
  preparationSec: Bound
  presentationSec: Bound
  questions: Bound
  thinkSec: Bound
  answerSec: Bound
  closingSec: Bound
}

export type DegreeConfig = {
  degree: { id: string; nombre: string }
  blueprint: Blueprint
  rubric: Rubric
  bounds: BlueprintBounds
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
