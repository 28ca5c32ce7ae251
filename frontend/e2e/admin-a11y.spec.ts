// axe-core finds no serious or critical violation on the tutor's pages,
// on a desktop and at 360 px.
import { signIn } from './support/fixtures'
import { test, expect, apiAs, ok, loadGroup, setShortBlueprint, finishedAttempt, expectAccessible, userIdOf } from './support/admin'

for (const width of [1280, 360]) {
  test(`tutor pages are accessible at ${width} px`, async ({ page, server }) => {
    test.setTimeout(150_000)
    const tutor = await server.createUser('tutor')
    const student = await server.createUser('estudiante', { name: 'Rosa Accesible Paz' })
    const tutorApi = await apiAs(server, tutor)
    const studentApi = await apiAs(server, student)
    await setShortBlueprint(tutorApi)
    await loadGroup(tutorApi, [student.email])
    const graded = await finishedAttempt(studentApi, { level: 3, notes: 'Hechos\nProblema\nNormas' })
    const levels = Object.fromEntries(graded.rubric.criteria.map((c) => [c.id, 3]))
    await ok(await tutorApi.post(`/api/attempts/${graded.id}/grade`, { data: { levels, comments: 'Bien.' } }))
    const waiting = await finishedAttempt(studentApi, { level: 2 })
    const [demoCase] = await ok<{ id: string }[]>(await tutorApi.get('/api/admin/cases?degree=derecho'))

    await signIn(page, tutor)
    const pages = [
      '/admin/calificar',
      `/admin/calificar/${waiting.id}`,
      `/admin/calificar/${graded.id}`,
      '/admin/estudiantes',
      `/admin/estudiantes/${await userIdOf(studentApi)}`,
      '/admin/casos',
      '/admin/casos/nuevo',
      `/admin/casos/${demoCase.id}`,
      '/admin/configuracion',
    ]
    await page.setViewportSize({ width, height: 800 })
    for (const path of pages) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible()
      await expectAccessible(page)
    }

    // With the server's problems shown beside the fields.
    await page.goto('/admin/casos/nuevo')
    await page.getByRole('button', { name: 'Crear caso' }).click()
    await expect(page.getByRole('alert').filter({ hasText: 'El caso tiene datos incompletos' })).toBeVisible()
    await expectAccessible(page)
    // With a blueprint value out of bounds and weights that do not add up.
    await page.goto('/admin/configuracion')
    await page.getByRole('group', { name: 'Preparación', exact: true }).getByLabel('Minutos').fill('60')
    await page.getByRole('group', { name: 'Preparación', exact: true }).getByLabel('Segundos').fill('59')
    await page
      .getByRole('group', { name: /^Criterio 1(:|$)/ })
      .getByLabel('Peso')
      .fill('1')
    await expect(page.getByText(/faltan/)).toBeVisible()
    await expectAccessible(page)
    await Promise.all([tutorApi.dispose(), studentApi.dispose()])
  })
}
