// The tribunal's questions are shown and read aloud in Spanish with the
// browser's speech synthesis where it exists (docs/product.md, "Phases").
import type { Page } from '@playwright/test'
import { test, expect, classroom, signIn, chooseAndStart, phaseHeading, recordSpeech, spoken, withoutSpeech } from './support/simulator'

// Phases long enough never to end by themselves: the test moves on with the
// buttons, so a slow machine cannot skip the think time it looks at.
const long = { preparationSec: 120, presentationSec: 120, questions: 2, thinkSec: 60, answerSec: 60, closingSec: 60 }

const question = (page: Page) =>
  page
    .getByRole('region', { name: /^Pregunta \d del tribunal$/ })
    .locator('p')
    .first()

async function followUps(page: Page, id: string): Promise<string[]> {
  const res = await page.request.get(`/api/attempts/${id}`)
  expect(res.status()).toBe(200)
  return ((await res.json()) as { case: { followUps: string[] } }).case.followUps
}

test('each tribunal question is read aloud in Spanish when it is shown, once, and again on request', async ({ page, server }) => {
  test.setTimeout(90_000)
  await recordSpeech(page)
  const { student } = await classroom(server, long)
  await signIn(page, student)
  const id = await chooseAndStart(page, 'Simulacro')
  const asked = await followUps(page, id)
  expect(asked.length).toBeGreaterThanOrEqual(2)

  // Nothing is read before the tribunal speaks.
  await expect(phaseHeading(page)).toHaveText('Preparación')
  await page.getByRole('button', { name: 'Terminar preparación' }).click()
  await expect(phaseHeading(page)).toHaveText('Exposición')
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
  expect(await spoken(page)).toEqual([])
  await page.getByRole('button', { name: 'Terminar exposición' }).click()

  // Question 1: shown and read, with the Ecuadorian Spanish voice.
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: tiempo para pensar')
  await expect(question(page)).toHaveText(asked[0])
  const first = { text: asked[0], lang: 'es-EC', voice: 'Español (Ecuador)' }
  await expect.poll(() => spoken(page)).toEqual([first])
  // "Escuchar la pregunta" reads it again.
  await page.getByRole('button', { name: 'Escuchar la pregunta' }).click()
  await expect.poll(() => spoken(page)).toEqual([first, first])

  // The answer keeps the question on screen without reading it once more.
  await page.getByRole('button', { name: 'Responder ahora' }).click()
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: respuesta')
  await expect(question(page)).toHaveText(asked[0])
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
  expect(await spoken(page)).toEqual([first, first])
  await page.getByRole('button', { name: 'Terminar respuesta' }).click()

  // Question 2 is read as it appears.
  await expect(phaseHeading(page)).toHaveText('Pregunta 2: tiempo para pensar')
  await expect(question(page)).toHaveText(asked[1])
  await expect.poll(() => spoken(page)).toEqual([first, first, { text: asked[1], lang: 'es-EC', voice: 'Español (Ecuador)' }])
})

test('without speech synthesis the question is shown and the attempt goes on', async ({ page, server }) => {
  test.setTimeout(90_000)
  await withoutSpeech(page)
  const { student } = await classroom(server, { ...long, questions: 1 })
  await signIn(page, student)
  const id = await chooseAndStart(page, 'Simulacro')
  const asked = await followUps(page, id)
  await page.getByRole('button', { name: 'Terminar preparación' }).click()
  await expect(phaseHeading(page)).toHaveText('Exposición')
  await page.getByRole('button', { name: 'Terminar exposición' }).click()
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: tiempo para pensar')
  await expect(question(page)).toHaveText(asked[0])
  await expect(page.getByRole('button', { name: 'Escuchar la pregunta' })).toHaveCount(0)
  await page.getByRole('button', { name: 'Responder ahora' }).click()
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: respuesta')
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
})
