// Where the simulator's pages live: the pages under the /test and /auth
// sections.
export const testPaths = {
  home: '/test',
  attempt: (id: string) => `/test/intento/${encodeURIComponent(id)}`,
  result: (id: string) => `/auth/historial/${encodeURIComponent(id)}`,
  historial: '/auth/historial',
  rubrica: '/auth/rubrica',
  carreras: '/auth/carreras',
} as const
