// The tutor follows each student's practice (docs/product.md, /admin
// Estudiantes).
import { signIn, closeDialog } from './support/fixtures'
import { test, expect, apiAs, ok, loadGroup, setShortBlueprint, finishedAttempt, userIdOf } from './support/admin'

test('Estudiantes shows attempts, average and trend, and opens a student’s attempts', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante', { name: 'Andrés Villacís Mora' })
  const idle = await server.createUser('estudiante', { name: 'Paula Sin Intentos' })
  const tutorApi = await apiAs(server, tutor)
  const studentApi = await apiAs(server, student)
  await setShortBlueprint(tutorApi)
  await loadGroup(tutorApi, [student.email, idle.email])
  // Two finished attempts (10 then 5) and one in progress.
  const first = await finishedAttempt(studentApi, { level: 4 })
  const second = await finishedAttempt(studentApi, { level: 2 })
  const third = await ok<{ id: string }>(await studentApi.post('/api/attempts', { data: { mode: 'entrenamiento' } }), 201)

  await signIn(page, tutor)
  await page.goto('/admin/estudiantes')
  const row = page.getByRole('row', { name: /Andrés Villacís Mora/ })
  const cells = row.getByRole('cell')
  // Nombre, Correo, Ha ingresado, Intentos, Terminados, Última nota, Promedio, Tendencia, Última actividad
  await expect(cells.nth(3)).toHaveText('3')
  await expect(cells.nth(4)).toHaveText('2')
  await expect(cells.nth(5)).toHaveText('5,0')
  await expect(cells.nth(6)).toHaveText('7,5')
  await expect(cells.nth(7)).toHaveText('↓ Baja')
  await expect(cells.nth(8)).not.toHaveText('Sin actividad')
  // Andrés has signed in (his API session); Paula was created from the
  // terminal and never has.
  await expect(cells.nth(2)).toContainText(/^Sí, último ingreso: /)
  const idleCells = page.getByRole('row', { name: /Paula Sin Intentos/ }).getByRole('cell')
  await expect(idleCells.nth(2)).toHaveText('Aún no')
  await expect(idleCells.nth(3)).toHaveText('0')
  await expect(idleCells.nth(6)).toHaveText('—')
  await expect(idleCells.nth(7)).toHaveText('Sin datos')

  await row.getByRole('link', { name: /Andrés Villacís Mora/ }).click()
  // The student is named by user id: no address in the URL (nor in the
  // API's, which reach access logs).
  await expect(page).toHaveURL(new RegExp(`/admin/estudiantes/${await userIdOf(studentApi)}$`))
  await expect(page.getByRole('heading', { name: 'Andrés Villacís Mora' })).toBeVisible()
  await expect(page.getByText('7,5 / 10')).toBeVisible()
  const table = page.getByRole('table', { name: 'Intentos de Andrés Villacís Mora' })
  await expect(table.getByRole('row')).toHaveCount(4)
  await expect(table.getByRole('row').nth(1)).toContainText('En curso')
  await expect(table.getByRole('row').nth(2)).toContainText('5,0 / 10')
  await expect(table.getByRole('row').nth(2)).toContainText('Sin calificar')
  await expect(table.getByRole('row').nth(3)).toContainText('10,0 / 10')

  // Each attempt opens to grade (or to see, while in progress).
  await table.getByRole('row').nth(1).getByRole('link', { name: /^Ver/ }).click()
  await expect(page).toHaveURL(new RegExp(`/admin/calificar/${third.id}$`))
  await expect(page.getByText('El estudiante aún no termina este intento.', { exact: false })).toBeVisible()
  await page.goBack()
  await table
    .getByRole('row')
    .nth(3)
    .getByRole('link', { name: /^Calificar/ })
    .click()
  await expect(page).toHaveURL(new RegExp(`/admin/calificar/${first.id}$`))
  for (const c of first.rubric.criteria)
    await page
      .getByRole('group', { name: new RegExp(`^${c.id}\\.`) })
      .getByRole('radio', { name: /^1 · / })
      .check()
  await page.getByRole('button', { name: 'Guardar calificación' }).click()
  await closeDialog(page)

  // The tutor's mark replaces the self-assessment in the figures.
  await page.getByRole('link', { name: /Intentos de Andrés Villacís Mora/ }).click()
  await expect(table.getByRole('row').nth(3)).toContainText('Ver o recalificar')
  await expect(table.getByRole('row').nth(3)).toContainText('2,5 / 10')
  await expect(page.getByText('3,8 / 10')).toBeVisible()
  await page.getByRole('link', { name: '← Volver a Estudiantes' }).click()
  await expect(cells.nth(6)).toHaveText('3,8')
  await expect(cells.nth(7)).toHaveText('↑ Sube')
  expect(second.status).toBe('finished')

  // Once Paula signs in, the list says so.
  const idleApi = await apiAs(server, idle)
  await page.reload()
  await expect(idleCells.nth(2)).toContainText(/^Sí, último ingreso: /)
  await Promise.all([tutorApi.dispose(), studentApi.dispose(), idleApi.dispose()])
})

test('a student with no attempts in the tutor’s groups has an empty page', async ({ page, server }) => {
  const studentApi = await apiAs(server, await server.createUser('estudiante'))
  const id = await userIdOf(studentApi)
  await signIn(page, await server.createUser('tutor'))
  await page.goto(`/admin/estudiantes/${id}`)
  await expect(page.getByText('Este estudiante aún no tiene intentos en sus grupos.')).toBeVisible()
  await page.goto('/admin/estudiantes/nadie')
  await expect(page.getByText('Ese estudiante no existe.')).toBeVisible()
  await studentApi.dispose()
})
