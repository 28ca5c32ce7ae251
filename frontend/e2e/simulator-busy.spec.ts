// A server shedding load answers chunk uploads 503 with Retry-After for a
// while: the student sees a calm notice, not an error, and every chunk
// reaches the server once it takes them again.
import { test, expect, classroom, signIn, chooseAndStart, phaseHeading, getAttempt, localRecordings } from './support/simulator'

const busyText = 'El servidor está ocupado; sus grabaciones se guardan y se enviarán en unos segundos.'

test('a busy server (503 with Retry-After) delays the uploads calmly and loses nothing', async ({ page, server }) => {
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

  let refusing = true
  let refused = 0
  await page.route('**/api/attempts/*/recordings/*/chunks/*', async (route) => {
    if (refusing && route.request().method() === 'PUT') {
      refused++
      await route.fulfill({
        status: 503,
        headers: { 'Content-Type': 'application/json; charset=utf-8', 'Retry-After': '1' },
        body: JSON.stringify({
          error: {
            code: 'server_busy',
            message: 'El servidor está ocupado. Intente de nuevo en unos segundos.',
            details: { retryAfterSeconds: 1 },
          },
        }),
      })
      return
    }
    await route.continue()
  })

  await page.getByRole('button', { name: 'Terminar preparación' }).click()
  await expect(phaseHeading(page)).toHaveText('Exposición')
  const status = page.getByTestId('upload-status')
  await expect(status).toContainText(busyText, { timeout: 15_000 })
  await expect(page.getByRole('button', { name: 'Reintentar envío' })).toHaveCount(0)
  // Refused chunks wait in the browser, and recording goes on.
  await expect.poll(async () => (await localRecordings(page, id))[0]?.pendingChunks ?? 0, { timeout: 15_000 }).toBeGreaterThanOrEqual(2)
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
  // How many refusals the browser met by now depends on when it retries
  // (it waits out each Retry-After): what counts is that it was refused and
  // that nothing reached the server meanwhile.
  expect(refused).toBeGreaterThan(0)
  expect((await getAttempt(page, id)).recordings[0]?.chunks ?? 0).toBe(0)

  refusing = false
  await expect(status).toHaveText('Guardado en el servidor', { timeout: 20_000 })
  await page.getByRole('button', { name: 'Terminar exposición' }).click()
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: tiempo para pensar')
  await expect
    .poll(
      async () => {
        const [local] = await localRecordings(page, id)
        const [remote] = (await getAttempt(page, id)).recordings
        return (
          local.completed && local.pendingChunks === 0 && remote?.complete === true && remote.chunks === local.nextSeq && local.nextSeq >= 2
        )
      },
      { timeout: 20_000 },
    )
    .toBe(true)
})
