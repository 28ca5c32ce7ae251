// Going offline keeps recording; the queue shows what waits and drains when
// the connection is back.
import { test, expect, classroom, signIn, chooseAndStart, phaseHeading, getAttempt, localRecordings } from './support/simulator'

test('offline during a recording: chunks wait in the browser, then reach the server', async ({ page, context, server }) => {
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
  const status = page.getByTestId('upload-status')
  await expect(status).toHaveText('Guardado en el servidor')
  await expect.poll(async () => (await getAttempt(page, id)).recordings[0]?.chunks ?? 0).toBeGreaterThan(0)

  await context.setOffline(true)
  await expect(status).toContainText(/fragmentos? pendientes? — se enviarán? al reconectar/, { timeout: 15_000 })
  await expect.poll(async () => (await localRecordings(page, id))[0].pendingChunks, { timeout: 15_000 }).toBeGreaterThanOrEqual(2)
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
  await expect(status).toContainText(/^([2-9]|[1-9]\d+) fragmentos pendientes — se enviarán al reconectar/)

  await context.setOffline(false)
  await expect(status).toHaveText('Guardado en el servidor', { timeout: 20_000 })

  await page.getByRole('button', { name: 'Terminar exposición' }).click()
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: tiempo para pensar')
  await expect
    .poll(
      async () => {
        const [local] = await localRecordings(page, id)
        const [remote] = (await getAttempt(page, id)).recordings
        return local.completed && local.pendingChunks === 0 && remote?.complete === true && remote.chunks === local.nextSeq
      },
      { timeout: 20_000 },
    )
    .toBe(true)
  const a = await getAttempt(page, id)
  expect(a.recordings).toHaveLength(1)
})
