// Launching the simulator from a course of a learning platform (LTI 1.3,
// docs/lti.md), against bin/lti-test-platform: a course page that frames
// the simulator or opens it in a new tab, the roster and the gradebook.
import type { APIRequestContext } from '@playwright/test'
import { closeDialog, expectDialog } from './support/fixtures'
import { dialogTitles, recordDialogs } from './support/dialogs'
import { apiAs, expectAccessible, ok, setShortBlueprint, type AttemptJSON } from './support/admin'
import { courseId, expect, person, test } from './support/lti'

test('a student launched in the course frame opens the simulator in a new tab, signed in', async ({ page, platform }) => {
  const ana = person('learner', 'Ana Marcela Cueva')
  const course = courseId()
  await platform.addUsers([ana])
  await platform.addCourse({ id: course, title: 'Práctica Jurídica I', members: [ana.sub] })

  await page.goto(platform.coursePage(course, ana.sub, 'iframe'))
  const frame = page.frameLocator('#tool')
  await expect(frame.getByRole('heading', { name: 'Hola, Ana' })).toBeVisible()
  await expect(frame.getByText('El botón vale 60 segundos')).toBeVisible()
  const [tab] = await Promise.all([page.context().waitForEvent('page'), frame.getByRole('button', { name: 'Abrir el simulador' }).click()])
  await tab.waitForURL(/\/auth\/carreras$/)
  await expect(tab.getByText('Bienvenido(a), Ana.')).toBeVisible()
  await expect(tab.getByText('Aún no pertenece a un grupo activo.')).toBeVisible()
  await expect(frame.getByText('El simulador se abrió en una pestaña nueva.')).toBeVisible()
  // The session is the site's usual one: SameSite=Lax, never loosened.
  const session = (await page.context().cookies(tab.url())).find((c) => c.name === '__Host-simulador_session')
  expect(session?.sameSite).toBe('Lax')
})

test('a student launched in a new tab is signed in at once', async ({ page, platform }) => {
  const luis = person('learner', 'Luis Alberto Jaramillo')
  const course = courseId()
  await platform.addUsers([luis])
  await platform.addCourse({ id: course, title: 'Práctica Jurídica II', members: [luis.sub] })

  await page.goto(platform.coursePage(course, luis.sub, 'window'))
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: 'Abrir el simulador en una pestaña nueva' }).click(),
  ])
  await tab.waitForURL(/\/auth\/carreras$/)
  await expect(tab.getByText('Bienvenido(a), Luis.')).toBeVisible()
})

/** launchTutor opens the course in a new tab as its instructor and returns that tab, on /admin/grupo. */
async function launchTutor(
  page: import('@playwright/test').Page,
  platform: import('./support/lti').PlatformHandle,
  course: string,
  sub: string,
) {
  await page.goto(platform.coursePage(course, sub, 'window'))
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: 'Abrir el simulador en una pestaña nueva' }).click(),
  ])
  await tab.waitForURL(/\/admin\/grupo$/)
  return tab
}

test('a tutor loads the group from the course, and updates it', async ({ page, platform }) => {
  const docente = person('instructor', 'Diana Docente Ríos')
  const a = person('learner', 'Camila Ortega Vera')
  const b = person('learner', 'Bruno Salinas León')
  const c = person('learner', 'Carla Nueva Paz')
  const course = courseId()
  await platform.addUsers([docente, a, b, c])
  await platform.addCourse({
    id: course,
    title: 'Derecho Procesal Penal',
    members: [docente.sub, a.sub, b.sub],
    custom: { carrera: 'Derecho' },
  })

  await recordDialogs(page)
  const tab = await launchTutor(page, platform, course, docente.sub)
  await recordDialogs(tab)
  await tab.reload()
  await expect(tab.getByRole('heading', { name: 'Cargar grupo desde el curso' })).toBeVisible()
  await expect(tab.getByText('Derecho Procesal Penal')).toBeVisible()
  await expect(tab.getByLabel('Carrera del grupo')).toHaveValue('Derecho')
  await expectAccessible(tab)
  await tab.getByRole('button', { name: 'Cargar grupo desde el curso' }).click()
  await expectDialog(tab, 'Grupo cargado', 'El grupo se ha cargado correctamente')
  expect((await dialogTitles(tab)).slice(-2)).toEqual(['Cargando grupo', 'Grupo cargado'])
  await closeDialog(tab)
  await expect(tab.getByRole('heading', { name: 'Curso del grupo' })).toBeVisible()

  // The group holds the course's two students, not its teacher.
  const students = await ok<{ students: { email: string }[] }>(await tab.request.get('/api/admin/group/students'))
  expect(students.students.map((s) => s.email).sort()).toEqual([a.email, b.email].sort())

  // Nobody new yet.
  await tab.getByRole('button', { name: 'Actualizar desde el curso' }).click()
  await expectDialog(tab, 'Error', 'Los estudiantes ya están en el grupo')
  await closeDialog(tab)

  // One joins, one leaves: the newcomer is added, the one who left is listed.
  await platform.enroll(course, c.sub)
  await platform.unenroll(course, b.sub)
  await tab.getByRole('button', { name: 'Actualizar desde el curso' }).click()
  await expectDialog(tab, '1 Estudiante(s) agregado(s)', 'Los estudiantes se han agregado correctamente')
  expect((await dialogTitles(tab)).slice(-2)).toEqual(['Agregando estudiantes', '1 Estudiante(s) agregado(s)'])
  await closeDialog(tab)
  await expect(tab.getByText('Ya no están en el curso (1); siguen en el grupo:')).toBeVisible()
  await expect(tab.getByText(`Bruno Salinas León (${b.email})`)).toBeVisible()
  await expectAccessible(tab)
  const after = await ok<{ students: { email: string }[] }>(await tab.request.get('/api/admin/group/students'))
  expect(after.students.map((s) => s.email).sort()).toEqual([a.email, b.email, c.email].sort())
})

/** finishedMock runs a Simulacro to its end through the API (advancing every phase) and self-assesses it. */
async function finishedMock(student: APIRequestContext): Promise<AttemptJSON> {
  let a = await ok<AttemptJSON>(await student.post('/api/attempts', { data: { mode: 'simulacro' } }), 201)
  while (a.phases[a.current]?.kind !== 'self_assessment') {
    a = await ok<AttemptJSON>(await student.post(`/api/attempts/${a.id}/advance`, { data: { from: a.current } }))
  }
  const levels = Object.fromEntries(a.rubric.criteria.map((c) => [c.id, 3]))
  return ok<AttemptJSON>(await student.post(`/api/attempts/${a.id}/self-assessment`, { data: { levels } }))
}

test('a graded Simulacro reaches the course gradebook', async ({ page, platform, server }) => {
  const docente = person('instructor', 'Diego Docente Mora')
  const course = courseId()
  // The student also has a password account (to run the attempt through
  // the API); the course knows them by the same email.
  const student = await server.createUser('estudiante', { name: 'Estefanía Romero Celi' })
  const alumna = { ...person('learner', 'Estefanía Romero Celi'), email: student.email }
  await platform.addUsers([docente, alumna])
  await platform.addCourse({ id: course, title: 'Derecho Constitucional', members: [docente.sub, alumna.sub] })

  await recordDialogs(page)
  const tab = await launchTutor(page, platform, course, docente.sub)
  await setShortBlueprint(tab.request)
  const courses = await ok<{ courses: { id: string }[] }>(await tab.request.get('/api/admin/lti/courses'))
  await ok(await tab.request.post('/api/admin/lti/group', { data: { courseId: courses.courses[0].id, degree: 'Derecho' } }), 201)

  // The tutor creates the gradebook column from the Grupo page.
  await recordDialogs(tab)
  await tab.reload()
  await tab.getByRole('button', { name: 'Crear columna «Simulacro oral»' }).click()
  await expectDialog(tab, 'Columna vinculada', 'Las calificaciones de los simulacros se enviarán a «Simulacro oral».')
  await closeDialog(tab)
  await expect(tab.getByText('se envían a la columna «Simulacro oral»')).toBeVisible()

  const attempt = await finishedMock(await apiAs(server, student))
  await tab.goto(`/admin/calificar/${attempt.id}`)
  for (const c of attempt.rubric.criteria)
    await tab
      .getByRole('group', { name: new RegExp(`^${c.id}\\.`) })
      .getByRole('radio', { name: /^4 · / })
      .check()
  await tab.getByLabel('Comentarios para el estudiante').fill('Excelente manejo de la audiencia.')
  await tab.getByRole('button', { name: 'Guardar calificación' }).click()
  await expectDialog(tab, 'Calificación guardada')
  await closeDialog(tab)
  await expect(tab.getByText('Enviada al curso')).toBeVisible({ timeout: 20_000 })

  const scores = (await platform.scores()).filter((s) => s.context === course)
  expect(scores).toHaveLength(1)
  expect(scores[0].score).toMatchObject({
    userId: alumna.sub,
    scoreGiven: 10,
    scoreMaximum: 10,
    comment: 'Excelente manejo de la audiencia.',
    activityProgress: 'Completed',
    gradingProgress: 'FullyGraded',
  })

  // The tutor can send it again.
  await tab.getByRole('button', { name: 'Reenviar' }).click()
  await expect.poll(async () => (await platform.scores()).filter((s) => s.context === course).length, { timeout: 20_000 }).toBe(2)
  await expect(tab.getByText('Enviada al curso')).toBeVisible({ timeout: 20_000 })
})

test('an instructor adds a deep link to the course, which opens the chosen mode', async ({ page, platform }) => {
  const docente = person('instructor', 'Daniela Docente Paz')
  const course = courseId()
  await platform.addUsers([docente])
  await platform.addCourse({ id: course, title: 'Clínica Jurídica', members: [docente.sub] })

  await page.goto(platform.coursePage(course, docente.sub, 'deeplink'))
  const frame = page.frameLocator('#tool')
  await expect(frame.getByRole('heading', { name: 'Agregar el simulador a «Clínica Jurídica»' })).toBeVisible()
  await frame.getByRole('radio', { name: /^Entrenamiento/ }).check()
  const area = frame.getByLabel('Área del derecho (solo Entrenamiento)')
  const firstArea = await area.locator('option').nth(1).getAttribute('value')
  expect(firstArea).toBeTruthy()
  await area.selectOption(firstArea!)
  await frame.getByLabel('Dificultad (solo Entrenamiento)').selectOption('basico')
  await frame.getByRole('button', { name: 'Agregar al curso' }).click()
  // The platform verified the signed response and shows what it received.
  await expect(frame.getByRole('heading', { name: 'Contenido recibido' })).toBeVisible()
  await expect(frame.locator('li.item')).toHaveText(`Simulador oral: Entrenamiento · ${firstArea}`)

  const received = (await platform.deepLinks()).at(-1)!
  expect(received.items).toHaveLength(1)
  const item = received.items[0] as { type: string; url: string; custom: Record<string, string> }
  expect(item.type).toBe('ltiResourceLink')
  expect(item.url).toMatch(/\/lti\/launch$/)
  expect(item.custom).toEqual({ modo: 'entrenamiento', area: firstArea, dificultad: 'basico' })

  // The new link opens the simulator with that mode and area chosen.
  await page.goto(platform.coursePage(course, docente.sub, 'window', item.custom))
  const [tab] = await Promise.all([
    page.context().waitForEvent('page'),
    page.getByRole('link', { name: 'Abrir el simulador en una pestaña nueva' }).click(),
  ])
  await tab.waitForURL(/\/test\?/)
  await expect(tab.getByRole('radio', { name: /Entrenamiento/ })).toBeChecked()
  await expect(tab.getByLabel('Área del derecho', { exact: true })).toHaveValue(firstArea!)
})
