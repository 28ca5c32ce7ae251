// Shapes of the account endpoints (/api/me/account, /api/me/sessions, ...),
// declared in src/types/api.ts.
export type { Account, SessionItem, TotpSetup } from '@/types/api'

export const accountKeys = {
  account: ['me', 'account'] as const,
  sessions: ['me', 'sessions'] as const,
}
