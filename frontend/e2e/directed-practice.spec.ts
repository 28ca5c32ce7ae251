// Practice that follows the weak points, as the student sees it: a directed
// draw ("Sorteo dirigido") says why it chose the case, and the progress shows
// results by area of law.
import { test, expect, classroom, signIn, chooseAndStart, finishQuickly, phaseHeading } from './support/simulator'

test('a directed draw says why; progress shows results by area', async ({ page, server }) => {
  test.setTimeout(120_000)
  const { student } = await classroom(server, { questions: 1 })
  await signIn(page, student)

  // No finished attempt yet: it says so and draws from every area.
  const first = await chooseAndStart(page, 'Entrenamiento', undefined, undefined, { directed: true })
  const notice = page.getByText('Sorteo dirigido', { exact: true }).locator('xpath=..')
  await expect(notice).toContainText('Aún no tiene intentos terminados en las áreas con casos')
  await expect(phaseHeading(page)).toHaveText('Preparación')
  const res = await page.request.get(`/api/attempts/${first}`)
  expect(res.status()).toBe(200)
  const area = ((await res.json()) as { case: { area: string } }).case.area
  await finishQuickly(page, 1)

  // One finished attempt, at the lowest level: the next directed draw aims
  // at its area and says so.
  await chooseAndStart(page, 'Entrenamiento', undefined, undefined, { directed: true })
  const reason = page.getByText('Sorteo dirigido', { exact: true }).locator('xpath=..')
  await expect(reason).toContainText(`Área con menor promedio en sus últimos intentos: ${area}`)
  await expect(page.getByRole('heading', { level: 1 })).toContainText(': ')
  // The reason lives in the tab's history entry, so a reload keeps it.
  await page.reload()
  await expect(phaseHeading(page)).toHaveText('Preparación')
  await expect(reason).toContainText(`Área con menor promedio en sus últimos intentos: ${area}`)

  // The progress: a table by area with that attempt.
  await page.goto('/auth/carreras')
  const table = page.getByRole('table', { name: 'Resultados por área del derecho' })
  const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: area, exact: true }) })
  await expect(row).toHaveCount(1)
  await expect(row.getByRole('cell')).toHaveText(['1', /\/ 10$/, '0 de 1'])
})
