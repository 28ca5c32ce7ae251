// Route paths named by the spec (section 2) and the sections behind them.
export const paths = {
  home: '/inicio',
  login: '/login',
  carreras: '/auth/carreras',
  historial: '/auth/historial',
  test: '/test',
  admin: '/admin',
} as const
