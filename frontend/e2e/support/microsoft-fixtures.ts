// Fixtures for the Microsoft sign-in specs: each worker runs its own local
// OpenID Connect issuer (bin/oidc-test-issuer) and a server configured for it.
import type { Page } from '@playwright/test'
import { test as base } from './fixtures'
import { startIssuer, type IssuerHandle } from './oidc'
import { startServer, type ServerHandle } from './server'

export { expect, dialog } from './fixtures'

export const test = base.extend<object, { issuer: IssuerHandle; server: ServerHandle }>({
  issuer: [
    async ({}, use) => {
      const issuer = await startIssuer()
      await use(issuer)
      await issuer.stop()
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ issuer, hosting }, use) => {
      const server = await startServer(issuer.serverEnv, { hosting })
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
})

/**
 * Waits until a sign-in popup has closed itself. On a busy machine it can
 * close before the test looks at it, and a 'close' listener added then
 * would wait forever.
 */
export async function untilClosed(popup: Page | Promise<Page>): Promise<void> {
  const p = await popup
  if (!p.isClosed()) await p.waitForEvent('close')
}
