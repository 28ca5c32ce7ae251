// Fixtures for the LTI specs: each worker runs its own fake learning
// platform (bin/lti-test-platform, a course page on http://localhost:PORT,
// cross-site to the simulator on 127.0.0.1) registered in its server with
// `simulador lti platforms add`, and drives it through its control API.
import { startHelper } from './helper-process'
import { join } from 'node:path'
import { test as adminTest, expect } from './admin'
import { repoRoot, uniqueEmail, type ServerHandle } from './server'

export { expect }

export const platformBinary = join(repoRoot, 'bin', 'lti-test-platform')

export const roles = {
  learner: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Learner',
  instructor: 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor',
}

/** Mirrors ltitest.User (backend/internal/testsupport/ltitest). */
export type PlatformUser = { sub: string; email?: string; name?: string; givenName?: string; familyName?: string; roles: string[] }
export type Course = { id: string; title: string; label?: string; members: string[]; custom?: Record<string, string> }
export type ReceivedScore = { context: string; lineItem: string; score: Record<string, unknown> }
export type ReceivedDeepLink = { claims: Record<string, unknown>; items: Record<string, unknown>[]; data: string }

type Info = { url: string; issuer: string; clientId: string; deploymentId: string; authUrl: string; tokenUrl: string; jwksUrl: string }

export type PlatformHandle = Info & {
  addUsers: (users: PlatformUser[]) => Promise<void>
  addCourse: (c: Course) => Promise<void>
  enroll: (course: string, sub: string) => Promise<void>
  unenroll: (course: string, sub: string) => Promise<void>
  scores: () => Promise<ReceivedScore[]>
  deepLinks: () => Promise<ReceivedDeepLink[]>
  /** The course page: the tool in an iframe, a new tab (window) or the deep linking picker. */
  coursePage: (course: string, sub: string, open?: 'iframe' | 'window' | 'deeplink', custom?: Record<string, string>) => string
  stop: () => Promise<void>
  logs: () => string
}

export async function startPlatform(toolURL: string): Promise<PlatformHandle> {
  const helper = await startHelper<Info>(platformBinary, ['-addr', '127.0.0.1:0', '-host', 'localhost', '-tool', toolURL])
  const info = helper.ready
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${info.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return res.status === 204 ? undefined : res.json()
  }
  return {
    ...info,
    addUsers: async (users) => void (await control('POST', '/_control/users', users)),
    addCourse: async (c) => void (await control('POST', '/_control/courses', c)),
    enroll: async (course, sub) => void (await control('POST', '/_control/enroll', { course, sub })),
    unenroll: async (course, sub) => void (await control('DELETE', '/_control/enroll', { course, sub })),
    scores: async () => (await control('GET', '/_control/scores')) as ReceivedScore[],
    deepLinks: async () => (await control('GET', '/_control/deep-links')) as ReceivedDeepLink[],
    coursePage: (course, sub, open = 'iframe', custom = {}) => {
      const q = new URLSearchParams({ user: sub, open })
      for (const [k, v] of Object.entries(custom)) q.set(`custom_${k}`, v)
      return `${info.url}/course/${encodeURIComponent(course)}?${q}`
    },
    stop: helper.stop,
    logs: helper.logs,
  }
}

/** registerPlatform registers the platform in the server from the terminal, tutors allowed. */
export async function registerPlatform(server: ServerHandle, p: PlatformHandle) {
  await server.cli(
    'lti',
    'platforms',
    'add',
    '--issuer',
    p.issuer,
    '--client-id',
    p.clientId,
    '--deployment-id',
    p.deploymentId,
    '--auth-url',
    p.authUrl,
    '--token-url',
    p.tokenUrl,
    '--jwks-url',
    p.jwksUrl,
    '--allow-tutors',
  )
}

/** test: admin's server (short timings allowed) with a registered fake platform per worker. */
export const test = adminTest.extend<object, { platform: PlatformHandle }>({
  platform: [
    async ({ server }, use) => {
      const platform = await startPlatform(server.url)
      await registerPlatform(server, platform)
      await use(platform)
      await platform.stop()
    },
    { scope: 'worker' },
  ],
})

let n = 0
/** person makes a platform user with a unique subject and email. */
export function person(role: 'learner' | 'instructor', name: string): PlatformUser {
  n++
  const [given, ...family] = name.split(' ')
  return {
    sub: `sub-${process.pid}-${Date.now().toString(36)}-${n}`,
    email: uniqueEmail(role === 'learner' ? 'estudiante.lti' : 'docente.lti'),
    name,
    givenName: given,
    familyName: family.join(' '),
    roles: [roles[role]],
  }
}

export function courseId() {
  n++
  return `curso-${process.pid}-${Date.now().toString(36)}-${n}`
}
