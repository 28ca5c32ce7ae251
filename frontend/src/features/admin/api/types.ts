// Shapes of the group endpoints (spec section 3, groupStudents).
export type GroupStatus = 'activo' | 'finalizado'

export type Group = {
  id: string
  carrera: string
  carreraNombre: string
  departamento: string
  facultad: string
  modalidad: string
  docente: { Email: string }
  estudiantes: { email: string; attempts: unknown[] }[]
  status: GroupStatus
  createdAt: string
  finalizedAt: string | null
}

export type Member = {
  email: string
  name: string
  registered: boolean
  userId?: string
  addedAt: string
  attempts: number
  lastActivity: string | null
}

export type GroupWithMembers = { group: Group; students: Member[]; infoUnavailable: boolean }

export type RosterProblem = { row: number; column: string; message: string }

export const groupKeys = {
  all: ['admin', 'groups'] as const,
  active: ['admin', 'groups', 'active'] as const,
  activeStudents: ['admin', 'groups', 'active', 'students'] as const,
  history: ['admin', 'groups', 'history'] as const,
  one: (id: string) => ['admin', 'groups', 'one', id] as const,
  search: (q: string) => ['admin', 'students', 'search', q] as const,
}
