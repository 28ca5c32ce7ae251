import type { Group } from './types'

// Shapes of the course (LTI) endpoints: the courses a tutor launched the
// simulator from, the course of the active group and its gradebook column
// (docs/lti.md).
export type LtiCourse = {
  id: string
  title: string
  label: string
  degree: string
  launchedAt?: string
  /** The platform offers the course's roster (NRPS). */
  roster: boolean
  /** The platform offers the course's gradebook (AGS). */
  grades: boolean
}

export type LtiColumn = { id: string; label: string; scoreMaximum?: number }

export type LtiCourses = {
  courses: LtiCourse[]
  group: { groupId: string; course: LtiCourse; column: LtiColumn | null } | null
}

export type Omitted = { name: string; email: string; reason: string }
export type LeftStudent = { email: string; name: string }

export type LoadFromCourseResult = { skipped: boolean; group: Group; omitted: Omitted[] }
export type UpdateFromCourseResult = { added: number; group: Group; left: LeftStudent[]; omitted: Omitted[] }

/** Whether a Simulacro's grade reached the course's gradebook. */
export type ScoreState = 'none' | 'unlinked' | 'unsent' | 'pending' | 'sent' | 'error'
export type ScoreStatus = { state: ScoreState; error?: string; column?: string }

export const ltiKeys = {
  all: ['admin', 'lti'] as const,
  courses: ['admin', 'lti', 'courses'] as const,
  lineItems: ['admin', 'lti', 'line-items'] as const,
  /** gradedAt: the grade's time, so a new grade is a new status. */
  score: (attemptId: string, gradedAt: string) => ['admin', 'lti', 'score', attemptId, gradedAt] as const,
}
