// Two instances behind a round-robin proxy behave like one server: a
// Simulacro whose chunks alternate between them, playback from either,
// grading on the other, sign-out everywhere at once, an instance killed
// mid-take, a burst of wrong passwords, and the first start of both on an
// empty store. Runs once per production shape (projects cluster-postgres
// and cluster-firestore in playwright.config.ts): PostgreSQL or the
// Firestore emulator, with fake Cloud Storage. See support/cluster.ts.
import { test as base, expect, request as playwrightRequest, type APIRequestContext } from '@playwright/test'
import { missingServer, startCluster, warnSkipped, type Cluster, type ClusterStore } from './support/cluster'
import { chooseAndStart, classroom, finishQuickly, getAttempt, localRecordings, phaseHeading, signIn } from './support/simulator'

type Options = { clusterStore: ClusterStore }
type Fixtures = { cluster: Cluster }

const test = base.extend<object, Options & Fixtures>({
  clusterStore: ['postgres', { scope: 'worker', option: true }],
  cluster: [
    async ({ clusterStore }, use, workerInfo) => {
      if (missingServer(clusterStore)) {
        // No cluster: every test of the shape is skipped (below).
        await use(undefined as unknown as Cluster)
        return
      }
      const started = Date.now()
      const cluster = await startCluster(clusterStore)
      await use(cluster)
      await cluster.stop()
      console.log(
        `cluster ${clusterStore} (worker ${workerInfo.workerIndex}): started in ${cluster.startSeconds.toFixed(1)} s, ran ${((Date.now() - started) / 1000).toFixed(0)} s`,
      )
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  baseURL: async ({ cluster }, use) => use(cluster?.url),
})

// One cluster per shape, its tests one after the other in one worker.
test.describe.configure({ mode: 'default' })

// A shape whose store server is missing here is skipped, loudly.
const warned = new Set<string>()
test.skip(({ clusterStore }) => {
  const missing = missingServer(clusterStore)
  if (missing && !warned.has(missing)) {
    warned.add(missing)
    warnSkipped(missing)
  }
  return missing !== undefined
}, 'the store server of this shape is not available (see the warning on standard error)')

/** An API session on one instance directly (its own cookie jar). */
async function sessionOn(baseURL: string, email: string, password: string): Promise<APIRequestContext> {
  const ctx = await playwrightRequest.newContext({ baseURL })
  const res = await ctx.post('/api/auth/login', { data: { email, password } })
  expect(res.status(), await res.text()).toBe(200)
  return ctx
}

test('both instances started at once on an empty store: the demo cases are loaded once', async ({ cluster }) => {
  const tutor = await cluster.createUser('tutor')
  const api = await sessionOn(cluster.instances[1].url, tutor.email, tutor.password)
  const res = await api.get('/api/admin/cases')
  expect(res.status(), await res.text()).toBe(200)
  const body = (await res.json()) as { cases?: { title: string; demo: boolean }[] } | { title: string; demo: boolean }[]
  const cases = Array.isArray(body) ? body : (body.cases ?? [])
  const titles = cases.map((c) => c.title)
  expect(titles.length).toBeGreaterThanOrEqual(37)
  expect(new Set(titles).size).toBe(titles.length)
  for (const i of [0, 1]) expect(cluster.instances[i].logs()).toContain('msg=serving')
  expect((cluster.instances[0].logs() + cluster.instances[1].logs()).match(/msg="demo case bank loaded"/g)?.length).toBe(1)
  await api.dispose()
})

test('a Simulacro through both instances: chunks alternate, it plays from either, the tutor grades on the other', async ({
  page,
  cluster,
}) => {
  test.setTimeout(180_000)
  const { tutor, student } = await classroom(cluster, {
    preparationSec: 30,
    presentationSec: 8,
    questions: 1,
    thinkSec: 2,
    answerSec: 4,
    closingSec: 3,
  })
  const before = [cluster.served(0).chunkPuts, cluster.served(1).chunkPuts]
  await signIn(page, student)
  const id = await chooseAndStart(page, 'Simulacro')
  await page.getByRole('button', { name: 'Terminar preparación' }).click()
  await expect(phaseHeading(page)).toHaveText('Exposición')
  await finishQuickly(page, 3, 2)
  await expect
    .poll(async () => (await getAttempt(page, id)).recordings.every((r) => r.complete && r.chunks > 0), { timeout: 30_000 })
    .toBe(true)
  const puts = [cluster.served(0).chunkPuts - before[0], cluster.served(1).chunkPuts - before[1]]
  expect(puts[0], `chunk PUTs per instance: ${puts}`).toBeGreaterThan(0)
  expect(puts[1], `chunk PUTs per instance: ${puts}`).toBeGreaterThan(0)

  // Every take plays, whole and the same, from each instance directly
  // with the student's session (the cookie is the browser's).
  const attempt = await getAttempt(page, id)
  for (const take of attempt.recordings) {
    const bodies = []
    for (const instance of cluster.instances) {
      const res = await page.request.get(`${instance.url}/api/attempts/${id}/recordings/${take.id}/media`)
      expect(res.status(), `${instance.url}: ${await res.text()}`).toBe(200)
      const audio = await res.body()
      expect(audio.length).toBe(take.bytes)
      expect(audio.subarray(0, 4).toString('hex')).toBe('1a45dfa3')
      bodies.push(audio)
    }
    expect(Buffer.compare(bodies[0], bodies[1])).toBe(0)
  }

  // The tutor grades on one instance; the student reads the grade on the other.
  const tutorOn1 = await sessionOn(cluster.instances[1].url, tutor.email, tutor.password)
  const view = await tutorOn1.get(`/api/attempts/${id}`)
  expect(view.status()).toBe(200)
  const criteria = ((await view.json()) as { rubric: { criteria: { id: string }[] } }).rubric.criteria
  const graded = await tutorOn1.post(`/api/attempts/${id}/grade`, {
    data: { levels: Object.fromEntries(criteria.map((c) => [c.id, 4])), comments: 'Calificado en otra instancia.' },
  })
  expect(graded.status(), await graded.text()).toBe(200)
  const studentOn0 = await page.request.get(`${cluster.instances[0].url}/api/attempts/${id}`)
  const seen = (await studentOn0.json()) as { tutorGrade: { score: number; comments: string } | null }
  expect(seen.tutorGrade?.comments).toBe('Calificado en otra instancia.')
  expect(seen.tutorGrade?.score).toBe(10)
  await tutorOn1.dispose()

  // Composed once, by whichever instance got there: only the composed objects remain.
  for (const take of attempt.recordings)
    await expect.poll(() => cluster.mediaNames(`${id}/${take.id}`), { timeout: 30_000 }).toEqual(['recording'])
})

test('signing out on one instance ends the session on the other at once', async ({ cluster }) => {
  const student = await cluster.createUser('estudiante')
  const on0 = await sessionOn(cluster.instances[0].url, student.email, student.password)
  const cookies = (await on0.storageState()).cookies
  const on1 = await playwrightRequest.newContext({ baseURL: cluster.instances[1].url, storageState: { cookies, origins: [] } })
  const who = async (ctx: APIRequestContext) =>
    ((await (await ctx.get('/api/session')).json()) as { user: { mail: string } | null }).user?.mail ?? null
  expect(await who(on1)).toBe(student.email)
  expect((await on0.post('/api/auth/logout')).status()).toBeLessThan(300)
  expect(await who(on1)).toBeNull()
  await on0.dispose()
  await on1.dispose()
})

test('an instance is killed during the presentation and started again: no chunk is lost', async ({ page, cluster }) => {
  test.setTimeout(120_000)
  const { student } = await classroom(cluster, {
    preparationSec: 30,
    presentationSec: 60,
    questions: 1,
    thinkSec: 60,
    answerSec: 60,
    closingSec: 60,
  })
  await signIn(page, student)
  const id = await chooseAndStart(page, 'Simulacro')
  await page.getByRole('button', { name: 'Terminar preparación' }).click()
  await expect(phaseHeading(page)).toHaveText('Exposición')
  await expect.poll(async () => (await getAttempt(page, id)).recordings[0]?.chunks ?? 0).toBeGreaterThanOrEqual(3)

  // Killed mid-take: requests it was serving are cut and retried by the
  // browser; the proxy sends the rest to the other instance until it is back.
  await cluster.instances[0].kill()
  const [atKill] = await localRecordings(page, id)
  // two more chunks recorded while it is down
  await expect
    .poll(async () => (await localRecordings(page, id))[0].nextSeq, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(atKill.nextSeq + 2)
  await cluster.instances[0].restart()
  const afterRestart = cluster.served(0).chunkPuts
  await expect
    .poll(() => cluster.served(0).chunkPuts, { message: 'the restarted instance serves chunks again', timeout: 30_000 })
    .toBeGreaterThan(afterRestart)

  await expect(page.getByTestId('upload-status')).toHaveText('Guardado en el servidor', { timeout: 30_000 })
  await page.getByRole('button', { name: 'Terminar exposición' }).click()
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: tiempo para pensar')
  await expect
    .poll(
      async () => {
        const [local] = await localRecordings(page, id)
        const [remote] = (await getAttempt(page, id)).recordings
        return local.completed && local.pendingChunks === 0 && remote?.complete === true && remote.chunks === local.nextSeq
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  const [take] = (await getAttempt(page, id)).recordings
  for (const instance of cluster.instances) {
    const res = await page.request.get(`${instance.url}/api/attempts/${id}/recordings/${take.id}/media`)
    expect(res.status()).toBe(200)
    expect((await res.body()).length).toBe(take.bytes)
  }
  await expect.poll(() => cluster.mediaNames(`${id}/${take.id}`), { timeout: 30_000 }).toEqual(['recording'])
})

test('40 parallel wrong passwords over both instances cost no more password checks than on one instance', async ({ cluster }) => {
  test.setTimeout(120_000)
  const student = await cluster.createUser('estudiante')
  const checksBefore = cluster.passwordChecks()
  const api = await playwrightRequest.newContext({ baseURL: cluster.url })
  const answers = await Promise.all(
    Array.from({ length: 40 }, () =>
      api.post('/api/auth/login', { data: { email: student.email, password: 'no-es-la-clave' } }).then((r) => r.status()),
    ),
  )
  const served = [cluster.served(0).total, cluster.served(1).total]
  // One instance lets 5 attempts per account from one address through to
  // the password check, then makes the next wait; two instances sharing the
  // store, the same.
  await expect.poll(() => cluster.passwordChecks() - checksBefore).toBe(5)
  expect(answers.filter((s) => s === 401)).toHaveLength(5)
  expect(answers.filter((s) => s === 429)).toHaveLength(35)
  expect(served[0]).toBeGreaterThan(0)
  expect(served[1]).toBeGreaterThan(0)
  // Still refused from that address, on either instance, for the right
  // password too (from another address it would pass: docs/security.md).
  for (const instance of cluster.instances) {
    const res = await api.post(`${instance.url}/api/auth/login`, { data: { email: student.email, password: student.password } })
    expect(res.status()).toBe(429)
  }
  await api.dispose()
})
