// The tutor runs a group: the rules and dialogs of docs/product.md, "The
// group" and "Texts that must not change".
import { test, expect, signIn, expectDialog, closeDialog, dialog } from './support/fixtures'
import type { Page } from '@playwright/test'
import { recordDialogs } from './support/dialogs'
import { uniqueEmail } from './support/server'

/** Every dialog the page showed, in order, with its text (see recordDialogs). */
function shownDialogs(page: Page): Promise<{ title: string; text: string }[]> {
  return page.evaluate(() => window.__dialogs ?? [])
}

function rosterCSV(rows: [string, string][]) {
  const lines = ['email;name;degree;department;faculty;modality']
  for (const [email, name] of rows) lines.push(`${email};${name};Derecho;Ciencias Jurídicas;Ciencias Sociales;Distancia`)
  return Buffer.from('\ufeff' + lines.join('\r\n') + '\r\n', 'utf8')
}

test('a tutor loads a roster, adds students, finalizes, and finalizes again', async ({ page, server, browser }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante', { name: 'Lucía Andrade Ríos' })
  const other = uniqueEmail('otra')
  await recordDialogs(page)
  await signIn(page, tutor)
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/admin\/grupo$/)

  // Load the group.
  await page.getByLabel('Archivo del grupo').setInputFiles({
    name: 'grupo.csv',
    mimeType: 'text/csv',
    buffer: rosterCSV([
      [student.email, 'Lucía Andrade'],
      ['pedro.sanchez@utpl.edu.ec', 'Pedro Sánchez'],
    ]),
  })
  await page.getByRole('button', { name: 'Cargar grupo' }).click()
  await expectDialog(page, 'Grupo cargado', 'El grupo se ha cargado correctamente')
  expect(await shownDialogs(page)).toEqual([
    { title: 'Cargando grupo', text: 'Por favor espere...' },
    { title: 'Grupo cargado', text: 'El grupo se ha cargado correctamente' },
  ])
  await closeDialog(page)
  await expect(page.getByRole('heading', { name: 'Grupo activo' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Cargar grupo' })).toHaveCount(0)

  // The student of the group may now practise.
  const studentPage = await browser.newPage({ baseURL: server.url })
  await signIn(studentPage, student)
  await studentPage.goto('/test')
  await expect(studentPage).toHaveURL(/\/test$/)

  // Add one new student and one already present.
  await page.getByText('Pegar correos').click()
  await page.getByLabel('Correos de los estudiantes').fill(`${other}\n${student.email.toUpperCase()}`)
  await page.getByRole('button', { name: 'Agregar estudiantes' }).click()
  await expectDialog(page, '1 Estudiante(s) agregado(s)', 'Los estudiantes se han agregado correctamente')
  expect((await shownDialogs(page)).slice(-2)).toEqual([
    { title: 'Agregando estudiantes', text: 'Por favor espere...' },
    { title: '1 Estudiante(s) agregado(s)', text: 'Los estudiantes se han agregado correctamente' },
  ])
  await closeDialog(page)

  // Only students already in the group: "Los estudiantes ya están en el grupo".
  await page.getByLabel('Correos de los estudiantes').fill(student.email)
  await page.getByRole('button', { name: 'Agregar estudiantes' }).click()
  await expectDialog(page, 'Error', 'Los estudiantes ya están en el grupo')
  await closeDialog(page)

  // The Estudiantes tab lists all three, with who has signed in (Lucía did,
  // above; the others have no profile yet).
  await page.getByRole('link', { name: 'Estudiantes', exact: true }).click()
  const rows = page.getByRole('row')
  await expect(rows).toHaveCount(4)
  await expect(
    page
      .getByRole('row', { name: /Lucía Andrade Ríos/ })
      .getByRole('cell')
      .nth(2),
  ).toContainText(/^Sí, último ingreso: /)
  await expect(
    page
      .getByRole('row', { name: /pedro\.sanchez/ })
      .getByRole('cell')
      .nth(2),
  ).toHaveText('Aún no')

  // Finalize, with a confirmation first.
  await page.getByRole('link', { name: 'Grupo', exact: true }).click()
  await page.getByRole('button', { name: 'Finalizar grupo' }).click()
  await expectDialog(page, '¿Finalizar el grupo?')
  await dialog(page).getByRole('button', { name: 'Sí, finalizar' }).click()
  await expectDialog(page, 'Grupo finalizado', 'El grupo se ha finalizado correctamente')
  const finalizing = (await shownDialogs(page)).slice(-3)
  expect(finalizing.map((d) => d.title)).toEqual(['¿Finalizar el grupo?', 'Finalizando grupo', 'Grupo finalizado'])
  expect(finalizing[1].text).toBe('Por favor espere...')
  expect(finalizing[2].text).toBe('El grupo se ha finalizado correctamente')
  await closeDialog(page)
  await expect(page.getByRole('button', { name: 'Cargar grupo' })).toBeVisible()

  // Finalize again: no active group.
  await page.getByRole('button', { name: 'Finalizar grupo' }).click()
  await expectDialog(page, 'Error', 'No hay grupo activo')
  await closeDialog(page)

  // The student lost access at once.
  await studentPage.goto('/test')
  await expect(studentPage).toHaveURL(/\/auth\/carreras$/)

  // The finalized group stays as read-only history.
  await page.getByRole('link', { name: 'Ver grupo' }).first().click()
  await expect(page.getByText('Finalizado', { exact: true }).first()).toBeVisible()
  await expect(page.getByRole('row')).toHaveCount(4)
  await studentPage.close()
})

test('a malformed roster names the rows and columns and writes nothing', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  await signIn(page, tutor)
  await page.goto('/admin/grupo')
  const header = 'correo,nombre,carrera,departamento,facultad,modalidad\n'
  const bad = Buffer.from(header + 'ana@utpl.edu.ec,Ana,Derecho\nno-es-correo,Luis,Derecho\nbeto@utpl.edu.ec,Beto,Medicina\n')
  await page.getByLabel('Archivo del grupo').setInputFiles({ name: 'grupo.csv', mimeType: 'text/csv', buffer: bad })
  await page.getByRole('button', { name: 'Cargar grupo' }).click()
  await expectDialog(page, 'Error')
  // The file's problems and the unknown degree, in one answer.
  await expect(dialog(page)).toContainText('Fila 3, columna «correo»: El correo «no-es-correo» no es válido.')
  await expect(dialog(page)).toContainText('Fila 4, columna «carrera»: La carrera «Medicina» no existe.')
  await closeDialog(page)
  await expect(page.getByRole('button', { name: 'Cargar grupo' })).toBeVisible()
  const res = await page.request.get('/api/admin/group')
  expect(await res.json()).toEqual({ group: null })

  // Unknown degree, reported against its row.
  const unknown = Buffer.from(header + 'ana@utpl.edu.ec,Ana,Medicina,,,\n')
  await page.getByLabel('Archivo del grupo').setInputFiles({ name: 'grupo.csv', mimeType: 'text/csv', buffer: unknown })
  await page.getByRole('button', { name: 'Cargar grupo' }).click()
  await expect(dialog(page)).toContainText('Fila 2, columna «carrera»: La carrera «Medicina» no existe.')
  await closeDialog(page)

  // A roster without one of the six columns names the missing one.
  const noModality = Buffer.from('correo,nombre,carrera,departamento,facultad\nana@utpl.edu.ec,Ana,Derecho,,\n')
  await page.getByLabel('Archivo del grupo').setInputFiles({ name: 'grupo.csv', mimeType: 'text/csv', buffer: noModality })
  await page.getByRole('button', { name: 'Cargar grupo' }).click()
  await expect(dialog(page)).toContainText('Falta la columna «modalidad».')
  await closeDialog(page)
  expect(await (await page.request.get('/api/admin/group')).json()).toEqual({ group: null })
})

test('an oversized roster is refused before upload', async ({ page, server }) => {
  await signIn(page, await server.createUser('tutor'))
  await page.goto('/admin/grupo')
  await page
    .getByLabel('Archivo del grupo')
    .setInputFiles({ name: 'grande.csv', mimeType: 'text/csv', buffer: Buffer.alloc(2 * 1024 * 1024 + 10, 'a') })
  await page.getByRole('button', { name: 'Cargar grupo' }).click()
  await expectDialog(page, 'Error', 'El archivo supera el límite de 2 MB.')
})

test('students can be picked among registered users', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  const registered = await server.createUser('estudiante', { name: 'Valentina Registrada Paz' })
  await signIn(page, tutor)
  await page.goto('/admin/grupo')
  await page
    .getByLabel('Archivo del grupo')
    .setInputFiles({ name: 'g.csv', mimeType: 'text/csv', buffer: rosterCSV([[uniqueEmail('uno'), 'Uno']]) })
  await page.getByRole('button', { name: 'Cargar grupo' }).click()
  await closeDialog(page)
  await page.getByText('Buscar registrados').click()
  await page.getByLabel('Buscar por nombre o correo').fill('Valentina')
  await page.getByRole('checkbox', { name: /Valentina Registrada Paz/ }).check()
  await page.getByRole('button', { name: 'Agregar estudiantes' }).click()
  await expectDialog(page, '1 Estudiante(s) agregado(s)')
  await closeDialog(page)
  // Registered from the terminal but never signed in: not yet.
  await page.goto('/admin/estudiantes')
  await expect(
    page
      .getByRole('row', { name: new RegExp(registered.email.replace(/\./g, '\\.')) })
      .getByRole('cell')
      .nth(2),
  ).toHaveText('Aún no')
})
