// Shapes of the course (LTI) endpoints: the courses a tutor launched the
// simulator from, the course of the active group and its gradebook column
// (docs/lti.md), declared in src/types/api.ts.
export type {
  LeftStudent,
  LoadFromCourseResult,
  LtiColumn,
  LtiCourse,
  LtiCourses,
  Omitted,
  ScoreState,
  ScoreStatus,
  UpdateFromCourseResult,
} from '@/types/api'

export const ltiKeys = {
  all: ['admin', 'lti'] as const,
  courses: ['admin', 'lti', 'courses'] as const,
  lineItems: ['admin', 'lti', 'line-items'] as const,
  /** gradedAt: the grade's time, so a new grade is a new status. */
  score: (attemptId: string, gradedAt: string) => ['admin', 'lti', 'score', attemptId, gradedAt] as const,
}
