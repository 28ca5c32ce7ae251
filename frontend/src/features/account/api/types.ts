// Shapes of the account endpoints (/api/me/account, /api/me/sessions, ...).

export type Account = {
  /** Whether the user signs in with a password (a Microsoft-only profile has none). */
  hasPassword: boolean
  mfa: {
    /** Two-step verification is offered: a tutor who signs in with a password. */
    available: boolean
    enabled: boolean
    recoveryCodesLeft: number
  }
}

export type SessionItem = {
  id: string
  /** Browser and operating system, "" when unknown. */
  browser: string
  os: string
  ip: string
  createdAt: string
  lastSeenAt: string
  /** The session of this browser. */
  current: boolean
}

export type TotpSetup = { secret: string; uri: string; qr: string }

export const accountKeys = {
  account: ['me', 'account'] as const,
  sessions: ['me', 'sessions'] as const,
}
