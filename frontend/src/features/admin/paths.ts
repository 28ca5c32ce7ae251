// Where the tutor's pages live: the pages under the /admin section
// (AdminSection's route table).
const id = (v: string) => encodeURIComponent(v)

export const adminPaths = {
  section: (tab: string) => `/admin/${tab}`,
  group: '/admin/grupo',
  pastGroup: (groupId: string) => `/admin/grupos/${id(groupId)}`,
  students: '/admin/estudiantes',
  student: (userId: string) => `/admin/estudiantes/${id(userId)}`,
  grading: '/admin/calificar',
  grade: (attemptId: string) => `/admin/calificar/${id(attemptId)}`,
  cases: '/admin/casos',
  newCase: '/admin/casos/nuevo',
  case: (caseId: string) => `/admin/casos/${id(caseId)}`,
} as const
