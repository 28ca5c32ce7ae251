// axe-core finds no serious or critical violation on the simulator's pages,
// on a desktop and on a 360 px phone.
import { apiAs, finishedAttempt } from './support/admin'
import { test, expect, classroom, signIn, chooseAndStart, phaseHeading, rateAll, expectAccessible } from './support/simulator'

// Each page's axe scan takes seconds on a loaded machine, so the pages are
// split over three tests, each within the usual deadline.
for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 360, height: 740 },
]) {
  const timings = { preparationSec: 60, presentationSec: 60, questions: 1, thinkSec: 30, answerSec: 30, closingSec: 30 }

  test(`the device check is accessible (${viewport.name})`, async ({ page, server }) => {
    await page.setViewportSize(viewport)
    const { student } = await classroom(server, timings)
    await signIn(page, student)
    await page.goto('/test')
    await expect(page.getByRole('heading', { name: 'Cómo funciona' })).toBeVisible()
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Continuar' }).click()
    await page.getByRole('button', { name: 'Probar micrófono' }).click()
    await expect(page.getByText('Micrófono listo.')).toBeVisible()
    await expectAccessible(page)
  })

  test(`every phase of an attempt is accessible (${viewport.name})`, async ({ page, server }) => {
    test.slow() // five scans, one while recording
    await page.setViewportSize(viewport)
    const { student } = await classroom(server, timings)
    await signIn(page, student)
    await page.goto('/test')
    await chooseAndStart(page, 'Entrenamiento')
    await expect(phaseHeading(page)).toHaveText('Preparación')
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Terminar preparación' }).click()
    await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Terminar exposición' }).click()
    await expect(phaseHeading(page)).toHaveText('Pregunta 1: tiempo para pensar')
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Responder ahora' }).click()
    await page.getByRole('button', { name: 'Terminar respuesta' }).click()
    await page.getByRole('button', { name: 'Terminar cierre' }).click()
    await expect(phaseHeading(page)).toHaveText('Autoevaluación')
    await rateAll(page, 2)
    await expectAccessible(page)
    await page.getByRole('button', { name: 'Enviar autoevaluación' }).click()
    await expect(page.getByRole('heading', { name: 'Compare su preparación con el caso' })).toBeVisible()
    await expectAccessible(page)
  })

  test(`the result and history pages are accessible (${viewport.name})`, async ({ page, server }) => {
    test.slow() // four scans
    await page.setViewportSize(viewport)
    const { student } = await classroom(server, timings)
    const attempt = await finishedAttempt(await apiAs(server, student))
    await signIn(page, student)
    await page.goto(`/auth/historial/${attempt.id}`)
    await expect(page.locator('audio').first()).toBeVisible({ timeout: 20_000 })
    await expectAccessible(page)
    for (const [path, title] of [
      ['/auth/historial', 'Historial'],
      ['/auth/rubrica', 'Rúbrica'],
      ['/auth/carreras', 'Carreras'],
    ]) {
      await page.goto(path)
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
      await expectAccessible(page)
    }
  })
}

test('the attempt can be run with the keyboard', async ({ page, server }) => {
  const { student } = await classroom(server, { preparationSec: 60, presentationSec: 60 })
  await signIn(page, student)
  await page.goto('/test')
  await page.getByRole('radio', { name: /^Simulacro/ }).focus()
  await page.keyboard.press('Space')
  await expect(page.getByRole('radio', { name: /^Simulacro/ })).toBeChecked()
  await page.getByRole('button', { name: 'Continuar' }).focus()
  await page.keyboard.press('Enter')
  await page.getByRole('button', { name: 'Probar micrófono' }).focus()
  await page.keyboard.press('Enter')
  await expect(page.getByText('Micrófono listo.')).toBeVisible()
  await page.getByRole('button', { name: 'Sortear caso y comenzar' }).focus()
  await page.keyboard.press('Enter')
  await expect(phaseHeading(page)).toHaveText('Preparación')
  // Write notes, then go back to the finish button with the keyboard.
  await page.getByLabel('Notas de preparación').focus()
  await page.keyboard.type('Hechos: ')
  await page.keyboard.press('Shift+Tab')
  await expect(page.getByRole('button', { name: 'Terminar preparación' })).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(phaseHeading(page)).toHaveText('Exposición')
})
