// The student's /auth pages: home with progress, history, result, rubric;
// deleting a recording keeps the attempt's score.
import { test, expect, classroom, signIn, chooseAndStart, finishQuickly, getAttempt, phaseHeading } from './support/simulator'

test('home, history, result with recordings, deleting a recording, rubric', async ({ page, server }) => {
  test.setTimeout(120_000)
  const { student, tutor, tutorApi } = await classroom(server, {
    preparationSec: 60,
    presentationSec: 60,
    questions: 1,
    answerSec: 30,
    closingSec: 30,
  })
  await signIn(page, student)

  // No attempts yet: the home offers to practise.
  await page.goto('/auth/carreras')
  await expect(page.getByRole('heading', { name: 'Carreras', level: 1 })).toBeVisible()
  const nav = page.getByRole('navigation', { name: 'Mis exámenes' })
  await expect(nav.getByRole('link', { name: 'Historial' })).toHaveAttribute('href', '/auth/historial')
  await expect(nav.getByRole('link', { name: 'Rúbrica' })).toHaveAttribute('href', '/auth/rubrica')
  await expect(page.getByRole('heading', { name: 'Su carrera' })).toBeVisible()
  await expect(page.getByText('Derecho', { exact: true })).toBeVisible()
  await page.getByRole('link', { name: 'Practicar' }).click()
  await expect(page).toHaveURL(/\/test$/)

  const id = await chooseAndStart(page, 'Entrenamiento')
  await expect(phaseHeading(page)).toHaveText('Preparación')
  await finishQuickly(page, 4)
  await expect.poll(async () => (await getAttempt(page, id)).recordings.filter((r) => r.complete).length, { timeout: 20_000 }).toBe(3)

  // Home: progress at a glance and the recent attempt.
  await page.goto('/auth/carreras')
  const progress = page.getByRole('region', { name: 'Su progreso' })
  await expect(progress).toContainText('Intentos1')
  await expect(progress).toContainText('10,0 / 10')
  await expect(progress).toContainText('Aún no hay suficientes intentos para ver una tendencia')
  await expect(page.getByRole('region', { name: 'Intentos recientes' }).getByRole('link').first()).toBeVisible()

  // History: newest first, openable.
  await nav.getByRole('link', { name: 'Historial' }).click()
  await expect(page.getByRole('heading', { name: 'Historial', level: 1 })).toBeVisible()
  const items = page.getByRole('listitem').filter({ hasText: 'Entrenamiento' })
  await expect(items).toHaveCount(1)
  await expect(items.first()).toContainText('Autoevaluación:')
  await items.first().getByRole('link').first().click()
  await expect(page).toHaveURL(new RegExp(`/auth/historial/${id}$`))

  // The result: scores, recordings, case, notes.
  await expect(page.getByText('Autoevaluación:').first()).toBeVisible()
  await expect(page.locator('audio')).toHaveCount(3, { timeout: 20_000 })
  await expect(page.getByRole('heading', { name: 'Puntos clave del caso' })).toBeVisible()
  // A one-question format: the key points speak of question 1 only; the
  // case's other follow-ups were not asked (every demo case links its three
  // follow-ups to three different key points).
  const keyPoints = page.getByRole('heading', { name: 'Puntos clave del caso' }).locator('xpath=following-sibling::ul')
  await expect(keyPoints.getByText('Responde a la pregunta 1 del tribunal', { exact: true })).toHaveCount(1)
  await expect(keyPoints.getByText('Responde a una pregunta no formulada en este intento', { exact: true })).toHaveCount(2)
  await expect(keyPoints).not.toContainText(/pregunta[s]? [23]|preguntas/)

  // Delete one recording: it is gone, the score stays.
  await page.getByRole('button', { name: 'Eliminar grabación de Exposición' }).click()
  await expect(page.locator('.swal2-title')).toHaveText('¿Eliminar la grabación?')
  await page.locator('.swal2-popup').getByRole('button', { name: 'Sí, eliminar' }).click()
  await expect(page.getByText('Esta grabación fue eliminada.')).toBeVisible()
  await expect(page.locator('audio')).toHaveCount(2)
  await expect(page.getByRole('button', { name: 'Eliminar grabación de Exposición' })).toHaveCount(0)
  const a = await getAttempt(page, id)
  expect(a.recordings.filter((r) => r.deleted)).toHaveLength(1)
  expect(a.selfAssessment?.score).toBe(10)
  expect((await page.request.get(`/api/attempts/${id}/recordings/${a.recordings.find((r) => r.deleted)!.id}/media`)).status()).toBe(404)
  await page.reload()
  await expect(page.getByText('Esta grabación fue eliminada.')).toBeVisible()
  await expect(page.getByText('Autoevaluación:').first()).toBeVisible()

  // The tutor grades it: the student sees both marks and the comments.
  const levels = Object.fromEntries(['C1', 'C2', 'C3', 'C4', 'C5', 'F1', 'F2', 'F3', 'F4', 'F5'].map((c) => [c, 2]))
  const graded = await tutorApi.post(`/api/attempts/${id}/grade`, { data: { levels, comments: 'Cite los artículos exactos.' } })
  expect(graded.status(), await graded.text()).toBe(200)
  await page.reload()
  await expect(page.getByText('Tutor:')).toBeVisible()
  await expect(page.getByText('5,0')).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Comentarios del tutor' })).toBeVisible()
  await expect(page.getByText('Cite los artículos exactos.')).toBeVisible()
  await expect(page.getByText('Autoevaluación:').first()).toBeVisible()

  // The tutor's grading view numbers only the question asked.
  await page.context().clearCookies()
  await signIn(page, tutor)
  await page.goto(`/admin/calificar/${id}`)
  await expect(page.getByRole('heading', { name: 'Preguntas del tribunal' })).toBeVisible()
  await expect(page.locator('#caso-tribunal + ol > li')).toHaveCount(1)
  await expect(page.locator('#caso-no-formuladas + ul > li')).toHaveCount(2)
  const expected = page.locator('#caso-puntos + ul')
  await expect(expected).toContainText('(Responde a la pregunta 1 del tribunal)')
  await expect(expected).not.toContainText(/pregunta[s]? [23]|preguntas/)
  await page.context().clearCookies()
  await signIn(page, student)
  await page.goto('/auth/carreras')

  // The rubric guide.
  await page.getByRole('navigation', { name: 'Mis exámenes' }).getByRole('link', { name: 'Rúbrica' }).click()
  await expect(page.getByRole('heading', { name: 'Rúbrica', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Contenido (70 puntos)' })).toBeVisible()
  await expect(page.getByRole('heading', { name: /C1\. Problema jurídico y hechos/ })).toBeVisible()
})

test('a student without an active group is told politely and has an empty history', async ({ page, server }) => {
  await signIn(page, await server.createUser('estudiante'))
  await page.goto('/auth/carreras')
  await expect(page.getByText('Aún no pertenece a un grupo activo')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Practicar' })).toHaveCount(0)
  await page.goto('/auth/historial')
  await expect(page.getByText('Aún no tiene intentos.')).toBeVisible()
  await page.goto('/auth/rubrica')
  await expect(page.getByRole('heading', { name: 'Formalidades (30 puntos)' })).toBeVisible()
})
