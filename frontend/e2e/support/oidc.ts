// Starts bin/oidc-test-issuer (an HTTPS OpenID Connect issuer shaped like
// Entra ID, for tests only) and drives it through its control API: who the
// next popup sign-in is, and which faults its ID token carries.
import { startHelper } from './helper-process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from './server'

export const issuerBinary = join(repoRoot, 'bin', 'oidc-test-issuer')

export type IssuerUser = {
  email?: string
  preferredUsername?: string
  name?: string
  givenName?: string
  familyName?: string
  oid?: string
  upn?: string
  /** Sends xms_edov: true (the tenant verifies the email claim's domain). */
  emailVerified?: boolean
}

/** Mirrors oidctest.SignIn (backend/internal/testsupport/oidctest). */
export type SignIn = {
  user?: IssuerUser
  otherTenant?: boolean
  tenantClaim?: string
  audience?: string
  expired?: boolean
  unknownKey?: boolean
  noEmail?: boolean
  nonce?: string
  /** Shows a page with Continuar/Cancelar instead of approving at once. */
  interactive?: boolean
  /** Answers error=access_denied, as when the user cancels at Microsoft. */
  deny?: boolean
}

export type IssuerHandle = {
  url: string
  authority: string
  issuer: string
  tenantId: string
  clientId: string
  caFile: string
  /** MS_* variables that point bin/simulador at this issuer. */
  serverEnv: Record<string, string>
  /** The next popup sign-in (used once; otherwise the issuer's default user). */
  setNext: (s: SignIn) => Promise<void>
  clearNext: () => Promise<void>
  /** Mints an ID token directly (for API-level sign-ins). */
  idToken: (s: SignIn) => Promise<string>
  stop: () => Promise<void>
  logs: () => string
}

type Ready = { url: string; authority: string; issuer: string; tenantId: string; clientId: string }

export async function startIssuer(): Promise<IssuerHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'oidc-issuer-'))
  const caFile = join(dir, 'ca.pem')
  const helper = await startHelper<Ready>(issuerBinary, ['-addr', '127.0.0.1:0', '-ca-out', caFile])
  const ready = helper.ready
  const ca = readFileSync(caFile)

  const control = (method: string, path: string, body?: unknown) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body)
      const req = httpsRequest(
        `${ready.url}${path}`,
        { method, ca, headers: payload ? { 'Content-Type': 'application/json' } : {} },
        (res) => {
          let text = ''
          res.on('data', (c: Buffer) => (text += c.toString()))
          res.on('end', () => {
            const status = res.statusCode ?? 0
            if (status >= 300) reject(new Error(`${method} ${path}: ${status} ${text}`))
            else resolve({ status, text })
          })
        },
      )
      req.on('error', reject)
      req.end(payload)
    })

  return {
    ...ready,
    caFile,
    serverEnv: {
      MS_TENANT_ID: ready.tenantId,
      MS_CLIENT_ID: ready.clientId,
      MS_AUTHORITY: ready.authority,
      MS_CA_FILE: caFile,
      // The issuer's users are in the university's domain (uniqueEmail).
      MS_EMAIL_DOMAINS: 'utpl.edu.ec',
    },
    setNext: async (s) => void (await control('POST', '/_control/next', s)),
    clearNext: async () => void (await control('DELETE', '/_control/next')),
    idToken: async (s) => (JSON.parse((await control('POST', '/_control/id-token', s)).text) as { idToken: string }).idToken,
    stop: async () => {
      await helper.stop()
      rmSync(dir, { recursive: true, force: true })
    },
    logs: helper.logs,
  }
}
