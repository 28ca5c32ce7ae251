// Where the simulator's pages live (the spec names /test and /auth; these
// are the pages under them).
export const testPaths = {
  home: '/test',
  attempt: (id: string) => `/test/intento/${encodeURIComponent(id)}`,
  result: (id: string) => `/auth/historial/${encodeURIComponent(id)}`,
  historial: '/auth/historial',
  rubrica: '/auth/rubrica',
  carreras: '/auth/carreras',
} as const
