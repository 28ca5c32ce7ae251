// The tutor grades attempts (docs/product.md, /admin Calificar).
import { signIn, expectDialog, closeDialog } from './support/fixtures'
import { recordDialogs, dialogTitles } from './support/dialogs'
import { test, expect, apiAs, ok, setShortBlueprint, loadGroup, finishedAttempt, score, type AttemptJSON } from './support/admin'

test('a tutor grades an attempt from the queue, regrades it, and only that tutor can', async ({ page, server, browser }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante', { name: 'Camila Ortega Vera' })
  const tutorApi = await apiAs(server, tutor)
  const studentApi = await apiAs(server, student)
  await setShortBlueprint(tutorApi)
  await loadGroup(tutorApi, [student.email])
  const attempt = await finishedAttempt(studentApi, { level: 2, notes: 'Problema jurídico: vulneración del debido proceso.' })
  expect(attempt.status).toBe('finished')

  await recordDialogs(page)
  await signIn(page, tutor)
  await page.goto('/admin')
  await expect(page.getByRole('link', { name: /Calificar.*1 por calificar/ })).toBeVisible()
  await page
    .getByRole('link', { name: /Calificar/ })
    .first()
    .click()
  await expect(page).toHaveURL(/\/admin\/calificar$/)
  await expect(page.getByRole('heading', { name: 'Intentos por calificar (1)' })).toBeVisible()
  const row = page.getByRole('row', { name: /Camila Ortega Vera/ })
  await expect(row).toContainText(attempt.case.title)
  await expect(row).toContainText(attempt.case.area)
  await expect(row).toContainText('Entrenamiento')
  await expect(row).toContainText(
    `${attempt.selfAssessment!.score.toLocaleString('es-EC', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} / 10`,
  )
  await row.getByRole('link', { name: /Calificar/ }).click()
  await expect(page).toHaveURL(new RegExp(`/admin/calificar/${attempt.id}$`))

  // Everything the tutor needs: the case with its key points and legal
  // bases, the notes, the recording, the phase times and the self-assessment.
  await expect(page.getByRole('heading', { level: 2, name: attempt.case.title })).toBeVisible()
  await expect(page.getByText(attempt.case.keyPoints[0])).toBeVisible()
  const base = attempt.case.legalBases[0]
  await expect(page.getByText(`${base.norm}, art. ${base.article}`).first()).toBeVisible()
  await expect(page.getByText('Problema jurídico: vulneración del debido proceso.')).toBeVisible()
  // The recording plays (the player fetched it) and can be downloaded.
  await expect(page.locator('p', { hasText: 'Grabación: Exposición' })).toContainText('(0:01)')
  const audio = page.getByLabel('Grabación: Exposición')
  await expect(audio).toBeVisible()
  await expect(audio).toHaveAttribute('src', /^blob:/)
  await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.duration)).toBeCloseTo(1, 1)
  await expect(page.getByRole('link', { name: /Descargar grabación: exposición/ })).toBeVisible()
  const mediaUrl = `/api/attempts/${attempt.id}/recordings/${attempt.recordings[0].id}/media`
  const media = await page.request.get(mediaUrl)
  expect(media.status()).toBe(200)
  expect(media.headers()['content-type']).toMatch(/^audio\//)
  // Opened directly in a tab, the recording is a download: a browser never
  // renders it as a page of this site, whatever its bytes.
  const tab = await page.context().newPage()
  const download = tab.waitForEvent('download')
  await tab.goto(mediaUrl).catch(() => {}) // navigation turns into a download
  expect((await download).suggestedFilename()).toMatch(/^grabacion-.+\.wav$/) // the fixture uploads a WAV
  await tab.close()
  await expect(page.getByRole('table', { name: 'Tiempo usado por fase' })).toContainText('Exposición')
  await expect(page.getByRole('table', { name: 'Rúbrica: niveles por criterio' })).toContainText('2 · En desarrollo')

  // Every criterion must be graded.
  await page.getByRole('button', { name: 'Guardar calificación' }).click()
  await expectDialog(page, 'Faltan criterios')
  await closeDialog(page)

  const criteria = attempt.rubric.criteria
  for (const c of criteria)
    await page
      .getByRole('group', { name: new RegExp(`^${c.id}\\.`) })
      .getByRole('radio', { name: /^3 · / })
      .check()
  await expect(page.getByText('Nota resultante: 7,5 / 10')).toBeVisible()
  await page.getByLabel('Comentarios para el estudiante').fill('Buena estructura; cite los artículos exactos.')
  await page.getByRole('button', { name: 'Guardar calificación' }).click()
  await expectDialog(page, 'Calificación guardada', 'El estudiante verá la calificación y sus comentarios.')
  expect((await dialogTitles(page)).slice(-2)).toEqual(['Guardando calificación', 'Calificación guardada'])
  await closeDialog(page)
  await expect(page.getByText('Tutor:').locator('..')).toContainText('7,5')

  // The student sees the grade and the comments.
  let seen = await ok<AttemptJSON>(await studentApi.get(`/api/attempts/${attempt.id}`))
  expect(seen.tutorGrade).toMatchObject({ score: 7.5, comments: 'Buena estructura; cite los artículos exactos.' })

  // The queue is empty now.
  await page.getByRole('link', { name: '← Volver a Calificar' }).click()
  await expect(page.getByText('No hay intentos por calificar.')).toBeVisible()
  await expect(page.getByRole('link', { name: /por calificar/ })).toHaveCount(0)

  // Regrading starts from the tutor's grade.
  await page.goto(`/admin/calificar/${attempt.id}`)
  const c1 = criteria[0]
  await expect(page.getByRole('group', { name: new RegExp(`^${c1.id}\\.`) }).getByRole('radio', { name: /^3 · / })).toBeChecked()
  await expect(page.getByLabel('Comentarios para el estudiante')).toHaveValue('Buena estructura; cite los artículos exactos.')
  await page
    .getByRole('group', { name: new RegExp(`^${c1.id}\\.`) })
    .getByRole('radio', { name: /^4 · / })
    .check()
  await page.getByLabel('Comentarios para el estudiante').fill('Mejoró el planteamiento del problema.')
  await page.getByRole('button', { name: 'Guardar nueva calificación' }).click()
  await expectDialog(page, 'Calificación guardada', 'El estudiante verá la calificación y sus comentarios.')
  await closeDialog(page)
  const levels = Object.fromEntries(criteria.map((c) => [c.id, c.id === c1.id ? 4 : 3]))
  seen = await ok<AttemptJSON>(await studentApi.get(`/api/attempts/${attempt.id}`))
  expect(seen.tutorGrade).toMatchObject({ score: score(criteria, levels), comments: 'Mejoró el planteamiento del problema.', levels })

  // Another tutor cannot see the attempt nor grade it.
  const other = await server.createUser('tutor')
  const otherApi = await apiAs(server, other)
  expect((await otherApi.get(`/api/attempts/${attempt.id}`)).status()).toBe(404)
  expect((await otherApi.post(`/api/attempts/${attempt.id}/grade`, { data: { levels, comments: 'x' } })).status()).toBe(404)
  expect((await otherApi.get(`/api/attempts/${attempt.id}/recordings/${attempt.recordings[0].id}/media`)).status()).toBe(404)
  expect(await ok(await otherApi.get('/api/admin/grading'))).toEqual([])
  const otherPage = await browser.newPage({ baseURL: server.url })
  await signIn(otherPage, other)
  await otherPage.goto(`/admin/calificar/${attempt.id}`)
  await expect(otherPage.getByText('No se encontró el intento, o no pertenece a sus grupos.')).toBeVisible()
  await otherPage.close()
  await Promise.all([tutorApi.dispose(), studentApi.dispose(), otherApi.dispose()])
})

test('an attempt not finished yet cannot be graded', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante')
  const tutorApi = await apiAs(server, tutor)
  const studentApi = await apiAs(server, student)
  await setShortBlueprint(tutorApi)
  await loadGroup(tutorApi, [student.email])
  const a = await ok<AttemptJSON>(await studentApi.post('/api/attempts', { data: { mode: 'entrenamiento' } }), 201)
  await signIn(page, tutor)
  await page.goto(`/admin/calificar/${a.id}`)
  await expect(page.getByText('El estudiante aún no termina este intento.', { exact: false })).toBeVisible()
  await expect(page.getByRole('button', { name: /Guardar/ })).toHaveCount(0)
  const res = await tutorApi.post(`/api/attempts/${a.id}/grade`, { data: { levels: {}, comments: '' } })
  expect(res.status()).toBe(409)
  await Promise.all([tutorApi.dispose(), studentApi.dispose()])
})
