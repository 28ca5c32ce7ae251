// Fixtures for the Microsoft sign-in specs: each worker runs its own local
// OpenID Connect issuer (bin/oidc-test-issuer) and a server configured for it.
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
    async ({ issuer }, use) => {
      const server = await startServer(issuer.serverEnv)
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
})
