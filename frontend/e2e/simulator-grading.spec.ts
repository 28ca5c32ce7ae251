// A Simulacro recorded in the browser, from the draw to the result, graded
// by the tutor of the group through the grading pages, and the grade seen by
// the student: the whole path through both sides of the product.
import type { Page } from '@playwright/test'
import { test, expect, classroom, signIn, chooseAndStart, phaseHeading, rateAll, getAttempt, expectPlayable } from './support/simulator'
import { score, type AttemptJSON } from './support/admin'
import { closeDialog } from './support/fixtures'

const es = (n: number) => n.toLocaleString('es-EC', { minimumFractionDigits: 1, maximumFractionDigits: 1 })

test('a Simulacro recorded in the browser is graded by the tutor, and the student sees the grade and the comments', async ({
  page,
  server,
  browser,
}) => {
  test.setTimeout(180_000)
  // A long preparation, ended with its button once the notes are saved; the
  // recorded phases end by themselves at their limits.
  const { tutor, student } = await classroom(server, { preparationSec: 120, questions: 1 })

  // The student: the draw, the phases, the self-assessment.
  await signIn(page, student)
  const id = await chooseAndStart(page, 'Simulacro')
  await expect(phaseHeading(page)).toHaveText('Preparación')
  await page.getByLabel('Notas de preparación').fill('Problema jurídico: simulacro calificado por el tutor.')
  await expect(page.getByText('Notas guardadas en el servidor.')).toBeVisible()
  await page.getByRole('button', { name: 'Terminar preparación' }).click()
  await expect(phaseHeading(page)).toHaveText('Exposición')
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
  // The server closes phases whose time is up, so a slow machine may pass
  // over the short ones without showing them: wait for the end only.
  await expect(phaseHeading(page)).toHaveText('Autoevaluación', { timeout: 90_000 })
  await rateAll(page, 2)
  await expect(page.getByText('Nota resultante: 5,0 / 10')).toBeVisible()
  await page.getByRole('button', { name: 'Enviar autoevaluación' }).click()
  await expect(page.getByRole('heading', { name: 'Compare su preparación con el caso' })).toBeVisible({ timeout: 40_000 })
  await expect
    .poll(
      async () => {
        const a = await getAttempt(page, id)
        return a.recordings.map((r) => `${a.phases[r.phase].kind}:${r.complete && r.chunks > 0 && r.bytes > 0}`).sort()
      },
      { timeout: 30_000 },
    )
    .toEqual(['answer:true', 'closing:true', 'presentation:true'])
  await page.getByRole('link', { name: 'Ver resultado' }).click()
  await expect(page).toHaveURL(new RegExp(`/auth/historial/${id}$`))
  await expect(page.getByText('Pendiente de calificación del tutor.')).toBeVisible()

  // The tutor of the group, in another browser: the attempt waits in Calificar.
  const tutorContext = await browser.newContext({ baseURL: server.url })
  const tp = await tutorContext.newPage()
  await signIn(tp, tutor)
  await tp.goto('/admin')
  await expect(tp.getByRole('link', { name: /Calificar.*1 por calificar/ })).toBeVisible()
  await tp
    .getByRole('link', { name: /Calificar/ })
    .first()
    .click()
  await expect(tp).toHaveURL(/\/admin\/calificar$/)
  await expect(tp.getByRole('heading', { name: 'Intentos por calificar (1)' })).toBeVisible()
  const attempt = await tutorView(tp, id)
  const row = tp.getByRole('row', { name: /Sofía Simulacro Pérez/ })
  await expect(row).toContainText(attempt.case.title)
  await expect(row).toContainText('Simulacro')
  await expect(row).toContainText('5,0 / 10')
  await row.getByRole('link', { name: /^Calificar/ }).click()
  await expect(tp).toHaveURL(new RegExp(`/admin/calificar/${id}$`))
  await expect(tp.getByRole('heading', { level: 2, name: attempt.case.title })).toBeVisible()
  await expect(tp.getByText('Problema jurídico: simulacro calificado por el tutor.')).toBeVisible()

  // Every recording of the Simulacro loads and seeks; the tutor plays the
  // presentation and it advances.
  await expectPlayable(tp, 3)
  for (const name of ['Exposición', 'Pregunta 1: respuesta', 'Alegato de cierre'])
    await expect(tp.getByLabel(`Grabación: ${name}`)).toBeVisible()
  const presentation = tp.getByLabel('Grabación: Exposición')
  // A click on the page is the user gesture the autoplay policy asks for.
  await tp.getByRole('heading', { name: 'Grabaciones', level: 2 }).click()
  await presentation.evaluate(async (el: HTMLAudioElement) => {
    el.muted = true // no sound card needed; the media still plays
    el.currentTime = 0
    await el.play()
  })
  await expect
    .poll(() => presentation.evaluate((el: HTMLAudioElement) => (el.paused ? -1 : el.currentTime)), { timeout: 15_000 })
    .toBeGreaterThan(0.5)
  await presentation.evaluate((el: HTMLAudioElement) => el.pause())

  // The grade: the rubric (one criterion higher than the rest) and a comment.
  const criteria = attempt.rubric.criteria
  const levels = Object.fromEntries(criteria.map((c, i) => [c.id, i === 0 ? 4 : 3]))
  const expected = score(criteria, levels)
  for (const c of criteria)
    await tp
      .getByRole('group', { name: new RegExp(`^${c.id}\\.`) })
      .getByRole('radio', { name: new RegExp(`^${levels[c.id]} · `) })
      .check()
  await expect(tp.getByText(`Nota resultante: ${es(expected)} / 10`)).toBeVisible()
  const comments = 'Buena exposición del problema jurídico; en el cierre cite la norma y el artículo exactos.'
  await tp.getByLabel('Comentarios para el estudiante').fill(comments)
  await tp.getByRole('button', { name: 'Guardar calificación' }).click()
  await expect(tp.locator('.swal2-popup .swal2-title')).toHaveText('Calificación guardada')
  await closeDialog(tp)
  await expect(tp.getByText('Comentarios enviados')).toBeVisible()
  await tp.getByRole('link', { name: '← Volver a Calificar' }).click()
  await expect(tp.getByText('No hay intentos por calificar.')).toBeVisible()
  await tutorContext.close()

  // The student: the history shows the tutor's mark...
  await page.goto('/auth/historial')
  await expect(page.getByRole('heading', { name: 'Historial', level: 1 })).toBeVisible()
  const item = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: attempt.case.title }) })
  await expect(item).toHaveCount(1)
  await expect(item).toContainText('Simulacro')
  await expect(item.getByText('Tutor:').locator('..')).toHaveText(
    `Tutor:${es(expected)}/ 10 · ${expected >= attempt.rubric.passScore ? 'Aprobado' : 'No aprobado'}`,
  )
  // ...and the result both marks, the comments, the tutor's levels.
  await item.getByRole('link', { name: attempt.case.title }).click()
  await expect(page).toHaveURL(new RegExp(`/auth/historial/${id}$`))
  await expect(page.getByText('Pendiente de calificación del tutor.')).toHaveCount(0)
  await expect(page.getByText('Autoevaluación:').first().locator('..')).toContainText('5,0')
  await expect(page.getByText('Tutor:').first().locator('..')).toContainText(es(expected))
  await expect(page.getByRole('heading', { name: 'Comentarios del tutor' })).toBeVisible()
  await expect(page.getByText(comments)).toBeVisible()
  // Signed with the tutor's name.
  await expect(page.getByText(`${tutor.name} ·`)).toBeVisible()
  const rubric = page.getByRole('table', { name: 'Rúbrica: niveles por criterio' })
  for (const c of criteria) {
    const cells = rubric.getByRole('row', { name: new RegExp(`^${c.id}\\.`) }).getByRole('cell')
    await expect(cells.nth(1)).toHaveText(/^2 · /)
    await expect(cells.nth(2)).toHaveText(new RegExp(`^${levels[c.id]} · `))
  }
  await expectPlayable(page, 3)
  const seen = await getAttempt(page, id)
  expect(seen.selfAssessment?.score).toBe(5)
})

// tutorView is the attempt as the tutor's session reads it (the rubric it was made with).
async function tutorView(page: Page, id: string): Promise<AttemptJSON> {
  const res = await page.request.get(`/api/attempts/${id}`)
  expect(res.status(), await res.text()).toBe(200)
  return (await res.json()) as AttemptJSON
}
