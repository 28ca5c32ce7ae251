// Support for the tutor-side specs (admin-*.spec.ts): a server that allows
// short phase timings, API sessions for tutors and students, and finished
// attempts produced through the API, without a browser recording.
import { randomUUID } from 'node:crypto'
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test'
import { test as base, expect } from './fixtures'
import { startServer, type ServerHandle, type TestUser } from './server'

type WorkerFixtures = { server: ServerHandle }

/** test runs each worker's server with ALLOW_SHORT_TIMINGS=true (phases of 2 s and up). */
export const test = base.extend<object, WorkerFixtures>({
  server: [
    async ({ mediaStore, hosting }, use) => {
      const server = await startServer({ ALLOW_SHORT_TIMINGS: 'true' }, { media: mediaStore, hosting })
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
})

export { expect }

/** An API session of a user (its own cookie jar). */
export async function apiAs(server: ServerHandle, user: TestUser): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL: server.url })
  const res = await ctx.post('/api/auth/login', { data: { email: user.email, password: user.password } })
  expect(res.status(), await res.text()).toBe(200)
  return ctx
}

/** The user id of an API session's user. */
export async function userIdOf(api: APIRequestContext): Promise<string> {
  const s = (await (await api.get('/api/session')).json()) as { user: { id: string } | null }
  if (!s.user) throw new Error('not signed in')
  return s.user.id
}

export async function ok<T = unknown>(
  res: { status: () => number; text: () => Promise<string>; json: () => Promise<unknown> },
  status = 200,
): Promise<T> {
  expect(res.status(), await res.text()).toBe(status)
  return (status === 204 ? undefined : await res.json()) as T
}

export const shortBlueprint = {
  preparationSec: 4,
  presentationSec: 4,
  questions: 1,
  thinkSec: 2,
  answerSec: 3,
  closingSec: 3,
  defaultMode: 'entrenamiento',
}

/** setShortBlueprint makes Derecho's attempts short (the tutor's session). */
export async function setShortBlueprint(tutor: APIRequestContext) {
  await ok(await tutor.put('/api/admin/config/derecho/blueprint', { data: { degreeId: 'derecho', ...shortBlueprint } }))
}

/** loadGroup gives the tutor an active Derecho group with these students. */
export async function loadGroup(tutor: APIRequestContext, emails: string[]) {
  const csv = ['email,degree,name,department,faculty,modality', ...emails.map((e) => `${e},Derecho`)].join('\n') + '\n'
  await ok(
    await tutor.post('/api/admin/group', { multipart: { file: { name: 'grupo.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) } } }),
    201,
  )
}

type Phase = { kind: string; recorded: boolean }
export type AttemptJSON = {
  id: string
  current: number
  status: string
  phases: Phase[]
  case: { id: string; title: string; area: string; keyPoints: string[]; legalBases: { norm: string; article: string }[] }
  rubric: { version: number; passScore: number; criteria: { id: string; name: string; weight: number }[] }
  selfAssessment: { score: number } | null
  tutorGrade: { score: number; comments: string; levels: Record<string, number> } | null
  recordings: { id: string; phase: number }[]
}

/** silentWav is a playable WAV file: `seconds` of silence, 8 kHz, 8-bit mono. */
export function silentWav(seconds = 1, rate = 8000): Buffer {
  const n = seconds * rate
  const b = Buffer.alloc(44 + n, 128)
  b.write('RIFF', 0)
  b.writeUInt32LE(36 + n, 4)
  b.write('WAVEfmt ', 8)
  b.writeUInt32LE(16, 16)
  b.writeUInt16LE(1, 20) // PCM
  b.writeUInt16LE(1, 22) // mono
  b.writeUInt32LE(rate, 24)
  b.writeUInt32LE(rate, 28) // bytes per second
  b.writeUInt16LE(1, 32) // block align
  b.writeUInt16LE(8, 34) // bits per sample
  b.write('data', 36)
  b.writeUInt32LE(n, 40)
  return b
}

/**
 * finishedAttempt has the student start a training attempt, record the
 * presentation (one chunk: a second of silence), save notes, go through
 * every phase and assess themselves at `level` on every criterion.
 */
export async function finishedAttempt(
  student: APIRequestContext,
  opts: { level?: number; notes?: string; area?: string } = {},
): Promise<AttemptJSON> {
  let a = await ok<AttemptJSON>(
    await student.post('/api/attempts', { data: { mode: 'entrenamiento', ...(opts.area ? { area: opts.area } : {}) } }),
    201,
  )
  const presentation = a.phases.findIndex((p) => p.kind === 'presentation')
  // The server takes a recording only once its phase has started.
  if (opts.notes) await ok(await student.put(`/api/attempts/${a.id}/notes`, { data: { notes: opts.notes } }), 204)
  while (a.current < presentation)
    a = await ok<AttemptJSON>(await student.post(`/api/attempts/${a.id}/skip`, { data: { from: a.current } }))
  const rid = randomUUID()
  await ok(await student.put(`/api/attempts/${a.id}/recordings/${rid}`, { data: { phase: presentation, mimeType: 'audio/wav' } }))
  await ok(
    await student.put(`/api/attempts/${a.id}/recordings/${rid}/chunks/0`, {
      data: silentWav(),
      headers: { 'Content-Type': 'application/octet-stream' },
    }),
  )
  await ok(await student.post(`/api/attempts/${a.id}/recordings/${rid}/complete`, { data: { chunks: 1, durationMs: 1000 } }))
  while (a.phases[a.current]?.kind !== 'self_assessment') {
    const action = a.phases[a.current].recorded ? 'advance' : 'skip'
    a = await ok<AttemptJSON>(await student.post(`/api/attempts/${a.id}/${action}`, { data: { from: a.current } }))
  }
  const levels = Object.fromEntries(a.rubric.criteria.map((c) => [c.id, opts.level ?? 3]))
  return ok<AttemptJSON>(await student.post(`/api/attempts/${a.id}/self-assessment`, { data: { levels } }))
}

export { expectAccessible } from './a11y'

/** score is the server's formula: sum(weight × level / 4) / 10, rounded half up to two decimals (in integers). */
export function score(criteria: { id: string; weight: number }[], levels: Record<string, number>) {
  const points = criteria.reduce((s, c) => s + c.weight * (levels[c.id] ?? 0), 0)
  return Math.floor((points * 5 + 1) / 2) / 100
}
