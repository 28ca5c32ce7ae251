// No loss: a reload in the middle of a recorded phase resumes the attempt
// and every chunk recorded before it reaches the server.
import {
  test,
  expect,
  classroom,
  signIn,
  chooseAndStart,
  phaseHeading,
  getAttempt,
  localRecordings,
  attemptLockHeld,
} from './support/simulator'

test('a reload during the presentation resumes the attempt with a new part and loses no chunk', async ({ page, server }) => {
  test.setTimeout(120_000)
  const { student } = await classroom(server, {
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
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()

  // The server is unreachable for chunks for a while: they pile up in IndexedDB.
  let refused = 0
  await page.route('**/recordings/*/chunks/*', (route) => {
    refused++
    return route.abort('connectionfailed')
  })
  await expect.poll(async () => (await localRecordings(page, id))[0]?.pendingChunks ?? 0, { timeout: 20_000 }).toBeGreaterThanOrEqual(3)
  const before = (await localRecordings(page, id))[0]
  expect(before).toMatchObject({ phase: 1, stopped: false })
  expect(refused).toBeGreaterThan(0)
  await page.unroute('**/recordings/*/chunks/*')

  await page.reload()

  // The attempt goes on in the same phase, recording a new part.
  await expect(phaseHeading(page)).toHaveText('Exposición')
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
  await expect.poll(async () => (await localRecordings(page, id)).length).toBe(2)

  // Part 1 was closed with what it had; the server ends with all of it.
  await expect
    .poll(
      async () => {
        const [part1] = await localRecordings(page, id)
        return part1.completed && part1.pendingChunks === 0
      },
      { timeout: 30_000 },
    )
    .toBe(true)
  const [part1] = await localRecordings(page, id)
  expect(part1.id).toBe(before.id)
  expect(part1.nextSeq).toBeGreaterThanOrEqual(before.nextSeq)
  const onServer = (await getAttempt(page, id)).recordings.find((r) => r.id === part1.id)
  expect(onServer).toMatchObject({ phase: 1, complete: true, chunks: part1.nextSeq })

  // Part 2 is finished when the student ends the presentation, once it
  // holds a chunk of its own.
  await expect.poll(async () => (await localRecordings(page, id))[1]?.nextSeq ?? 0, { timeout: 20_000 }).toBeGreaterThan(0)
  await page.getByRole('button', { name: 'Terminar exposición' }).click()
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: tiempo para pensar')
  await expect
    .poll(
      async () => {
        const local = (await localRecordings(page, id)).filter((l) => l.phase === 1)
        const server = (await getAttempt(page, id)).recordings
        return local.map((l) => {
          const s = server.find((r) => r.id === l.id)
          return `${l.phase}:${l.nextSeq > 0 && s?.complete === true && s.chunks === l.nextSeq}`
        })
      },
      { timeout: 20_000 },
    )
    .toEqual(['1:true', '1:true'])

  // The result page names the two parts.
  await page.getByRole('button', { name: 'Abandonar intento' }).click()
  await page.locator('.swal2-popup').getByRole('button', { name: 'Sí, abandonar' }).click()
  await expect(page).toHaveURL(new RegExp(`/auth/historial/${id}$`))
  await expect(page.getByText(/^Grabación: Exposición, parte 1/)).toBeVisible()
  await expect(page.getByText(/^Grabación: Exposición, parte 2/)).toBeVisible()
})

test('an attempt runs in one tab only; the other tab waits without touching its recordings', async ({ page, context, server }) => {
  const { student } = await classroom(server, {
    preparationSec: 2,
    presentationSec: 60,
    questions: 1,
    thinkSec: 60,
    answerSec: 60,
    closingSec: 60,
  })
  await signIn(page, student)
  const id = await chooseAndStart(page, 'Simulacro')
  await expect(phaseHeading(page)).toHaveText('Exposición')
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()

  const other = await context.newPage()
  await other.goto(`/test/intento/${id}`)
  await expect(other.getByText('Este intento está abierto en otra pestaña o ventana.')).toBeVisible()
  await expect(other.locator('#fase-actual')).toHaveCount(0)
  // The first tab's take goes on and keeps storing chunks.
  const [take] = await localRecordings(page, id)
  await expect.poll(async () => (await localRecordings(page, id))[0].nextSeq).toBeGreaterThan(take.nextSeq)
  expect((await localRecordings(page, id))[0].stopped).toBe(false)

  // Closing the first tab lets the second one take over, with a new part.
  // The browser lets go of a closed tab's lock a moment after the tab is
  // gone (later on a busy machine): the student presses «Reintentar» once
  // it has, as a person closing a tab and coming back would.
  await page.close()
  await expect.poll(() => attemptLockHeld(other, id), { timeout: 30_000 }).toBe(false)
  await other.getByRole('button', { name: 'Reintentar' }).click()
  await expect(other.locator('#fase-actual')).toHaveText('Exposición')
  await expect(other.getByText('Grabando', { exact: true })).toBeVisible()
  await expect.poll(async () => (await localRecordings(other, id)).length).toBe(2)
})
