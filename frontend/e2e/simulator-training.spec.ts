// Entrenamiento allows pausing, resuming and skipping; Simulacro does not.
import { test, expect, classroom, signIn, chooseAndStart, phaseHeading, getAttempt } from './support/simulator'

test('Entrenamiento: area and difficulty filters, pause and resume stop the clock, skip, structure guide, abandon', async ({
  page,
  server,
}) => {
  test.setTimeout(120_000)
  const { student } = await classroom(server, { preparationSec: 60, presentationSec: 60, questions: 1 })
  await signIn(page, student)
  await page.goto('/test')
  await page.getByRole('radio', { name: /^Entrenamiento/ }).check()
  const area = page.getByLabel('Área del derecho', { exact: true })
  const areas = await area.locator('option').allTextContents()
  expect(areas[0]).toBe('Todas las áreas')
  expect(areas).toContain('Constitucional')
  expect(await page.getByLabel('Dificultad', { exact: true }).locator('option').allTextContents()).toEqual([
    'Todas las dificultades',
    'Básico',
    'Intermedio',
    'Avanzado',
  ])
  const id = await chooseAndStart(page, 'Entrenamiento', 'Constitucional', 'Básico')
  await expect(page.getByText(/^Constitucional/).first()).toBeVisible()
  const drawn = await page.request.get(`/api/attempts/${id}`)
  expect(((await drawn.json()) as { case: { difficulty: string; area: string } }).case).toMatchObject({
    area: 'Constitucional',
    difficulty: 'basico',
  })

  // Pause: the clock stops on the server and on the page.
  await expect(phaseHeading(page)).toHaveText('Preparación')
  await page.getByRole('button', { name: 'Pausar' }).click()
  await expect(page.getByRole('button', { name: 'Reanudar' })).toBeVisible()
  await expect(page.getByText('Intento en pausa: el tiempo está detenido.')).toBeVisible()
  const timer = page.getByRole('timer', { name: 'Tiempo restante' })
  const frozen = await timer.textContent()
  await page.waitForTimeout(2200)
  await expect(timer).toHaveText(frozen!)
  await page.getByRole('button', { name: 'Reanudar' }).click()
  await expect(page.getByRole('button', { name: 'Pausar' })).toBeVisible()
  await expect(timer).not.toHaveText(frozen!, { timeout: 5000 })

  // Skip the preparation, with a confirmation.
  await page.getByRole('button', { name: 'Saltar fase' }).click()
  await expect(page.locator('.swal2-title')).toHaveText('¿Saltar esta fase?')
  await page.locator('.swal2-popup').getByRole('button', { name: 'Sí, saltar' }).click()
  await expect(phaseHeading(page)).toHaveText('Exposición')
  expect((await getAttempt(page, id)).phases[0].skipped).toBe(true)

  // The structure guide is visible; pausing pauses the recording too.
  await expect(page.getByRole('complementary', { name: 'Guía de estructura' })).toBeVisible()
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Pausar' }).click()
  await expect(page.getByText('Grabación en pausa', { exact: true })).toBeVisible()
  await page.getByRole('button', { name: 'Reanudar' }).click()
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()

  // Abandon, with a confirmation.
  await page.getByRole('button', { name: 'Abandonar intento' }).click()
  await expect(page.locator('.swal2-title')).toHaveText('¿Abandonar el intento?')
  await page.locator('.swal2-popup').getByRole('button', { name: 'Sí, abandonar' }).click()
  await expect(page).toHaveURL(new RegExp(`/auth/historial/${id}$`))
  await expect(page.getByText('Abandonado')).toBeVisible()
  expect((await getAttempt(page, id)).status).toBe('abandoned')
})

test('Simulacro: no pause, no skip, and the server refuses them too', async ({ page, server }) => {
  const { student } = await classroom(server, { preparationSec: 60 })
  await signIn(page, student)
  const id = await chooseAndStart(page, 'Simulacro')
  await expect(phaseHeading(page)).toHaveText('Preparación')
  await expect(page.getByRole('button', { name: 'Terminar preparación' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Pausar' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Saltar fase' })).toHaveCount(0)
  await expect(page.getByRole('complementary', { name: 'Guía de estructura' })).toHaveCount(0)
  expect((await page.request.post(`/api/attempts/${id}/pause`)).status()).toBe(409)
  expect((await page.request.post(`/api/attempts/${id}/skip`, { data: { from: 0 } })).status()).toBe(409)
  // "Continuar intento" brings the student back to it.
  await page.goto('/test')
  await page.getByRole('link', { name: 'Continuar intento' }).click()
  await expect(page).toHaveURL(new RegExp(`/test/intento/${id}$`))
  await expect(phaseHeading(page)).toHaveText('Preparación')
})
