// The app's fixed route paths and the sections behind them (docs/product.md,
// "Roles and sections").
export const paths = {
  home: '/inicio',
  login: '/login',
  carreras: '/auth/carreras',
  historial: '/auth/historial',
  test: '/test',
  admin: '/admin',
} as const
