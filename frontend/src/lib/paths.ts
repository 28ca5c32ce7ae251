// The app's route paths, in one place: every link and redirect takes its
// address from here, so a route is renamed in one file (and in the route
// tables: app/router.tsx and each section's). The sections and who may open
// them: docs/product.md, "Roles and sections".
const id = (v: string) => encodeURIComponent(v)

export const paths = {
  home: '/inicio',
  login: '/login',
  // The /auth section: the student's pages.
  carreras: '/auth/carreras',
  historial: '/auth/historial',
  result: (attemptId: string) => `/auth/historial/${id(attemptId)}`,
  rubrica: '/auth/rubrica',
  cuenta: '/auth/cuenta',
  // The /test section: the simulator.
  test: '/test',
  attempt: (attemptId: string) => `/test/intento/${id(attemptId)}`,
  admin: '/admin',
} as const

// The /admin section's pages (AdminSection's route table).
export const adminPaths = {
  group: '/admin/grupo',
  pastGroup: (groupId: string) => `/admin/grupos/${id(groupId)}`,
  students: '/admin/estudiantes',
  student: (userId: string) => `/admin/estudiantes/${id(userId)}`,
  grading: '/admin/calificar',
  grade: (attemptId: string) => `/admin/calificar/${id(attemptId)}`,
  cases: '/admin/casos',
  newCase: '/admin/casos/nuevo',
  case: (caseId: string) => `/admin/casos/${id(caseId)}`,
  config: '/admin/configuracion',
  reports: '/admin/reportes',
} as const
