// A student is in at most one active group; a tutor removes one student
// (docs/product.md, "The group").
import type { Page } from '@playwright/test'
import { signIn, expectDialog, closeDialog, dialog } from './support/fixtures'
import { test, expect, apiAs, ok, loadGroup, userIdOf } from './support/admin'
import { recordDialogs } from './support/dialogs'

function shownDialogs(page: Page): Promise<{ title: string; text: string }[]> {
  return page.evaluate(() => window.__dialogs ?? [])
}

test('a tutor removes a student after confirming; the student loses /test and the attempts stay', async ({ page, server, browser }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante', { name: 'Rosa Quitada Mena' })
  const stays = await server.createUser('estudiante', { name: 'Tomás Se Queda' })
  const tutorApi = await apiAs(server, tutor)
  const studentApi = await apiAs(server, student)
  await loadGroup(tutorApi, [student.email, stays.email])
  await ok(await studentApi.post('/api/attempts', { data: { mode: 'entrenamiento' } }), 201)

  const studentPage = await browser.newPage({ baseURL: server.url })
  await signIn(studentPage, student)
  await studentPage.goto('/test')
  await expect(studentPage).toHaveURL(/\/test$/)

  await recordDialogs(page)
  await signIn(page, tutor)
  await page.goto('/admin/estudiantes')
  const row = page.getByRole('row', { name: /Rosa Quitada Mena/ })
  const remove = row.getByRole('button', { name: 'Quitar a Rosa Quitada Mena del grupo' })
  const confirmText =
    'Dejará de tener acceso al simulador. Sus intentos se conservan en este grupo: podrá seguir viéndolos y calificándolos.'

  // Cancelling changes nothing.
  await remove.click()
  await expectDialog(page, '¿Quitar a Rosa Quitada Mena del grupo?', confirmText)
  await expect(dialog(page).getByRole('button', { name: 'Quitar' })).toBeVisible()
  await closeDialog(page, 'Cancelar')
  await expect(row).toBeVisible()

  // Confirming removes the student.
  await remove.click()
  await expectDialog(page, '¿Quitar a Rosa Quitada Mena del grupo?', confirmText)
  await dialog(page).getByRole('button', { name: 'Quitar' }).click()
  await expectDialog(page, 'Estudiante quitado', 'Rosa Quitada Mena ya no pertenece al grupo.')
  expect((await shownDialogs(page)).slice(-3).map((d) => d.title)).toEqual([
    '¿Quitar a Rosa Quitada Mena del grupo?',
    'Quitando estudiante',
    'Estudiante quitado',
  ])
  await closeDialog(page)
  await expect(row).toHaveCount(0)
  await expect(page.getByRole('row', { name: /Tomás Se Queda/ })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Estudiantes del grupo (1)' })).toBeVisible()

  // The student lost /test at once.
  await studentPage.goto('/test')
  await expect(studentPage).toHaveURL(/\/auth\/carreras$/)
  // Their attempt stays with the group, for the tutor.
  await page.goto(`/admin/estudiantes/${await userIdOf(studentApi)}`)
  await expect(
    page
      .getByRole('table', { name: /Intentos de/ })
      .getByRole('row')
      .nth(1),
  ).toContainText('En curso')

  await studentPage.close()
  await Promise.all([tutorApi.dispose(), studentApi.dispose()])
})

test('a second tutor cannot add or load a student of another tutor’s active group', async ({ page, server }) => {
  const first = await server.createUser('tutor')
  const second = await server.createUser('tutor')
  const taken = await server.createUser('estudiante', { name: 'Estudiante Ocupada' })
  const free = await server.createUser('estudiante', { name: 'Estudiante Libre' })
  const firstApi = await apiAs(server, first)
  await loadGroup(firstApi, [taken.email])
  const refusal = `El estudiante «${taken.email}» ya pertenece al grupo activo de otro docente.`

  await recordDialogs(page)
  await signIn(page, second)
  await page.goto('/admin/grupo')

  // Loading a roster with the taken student: refused, nothing stored.
  const roster = `correo,carrera,nombre,departamento,facultad,modalidad\n${free.email},Derecho\n${taken.email},Derecho\n`
  await page.getByLabel('Archivo del grupo').setInputFiles({ name: 'grupo.csv', mimeType: 'text/csv', buffer: Buffer.from(roster) })
  await page.getByRole('button', { name: 'Cargar grupo' }).click()
  await expectDialog(page, 'Error')
  await expect(dialog(page)).toContainText(
    'Hay estudiantes que ya pertenecen al grupo activo de otro docente. Quítelos del archivo y vuelva a cargarlo; no se guardó nada.',
  )
  await expect(dialog(page).getByRole('listitem')).toHaveText([`Fila 3: ${refusal}`])
  await expect(dialog(page)).not.toContainText(first.email)
  expect((await shownDialogs(page)).slice(-2).map((d) => d.title)).toEqual(['Cargando grupo', 'Error'])
  await closeDialog(page)
  expect(await (await page.request.get('/api/admin/group')).json()).toEqual({ group: null })

  // With a group of their own, adding the taken student is refused too.
  await page.getByLabel('Archivo del grupo').setInputFiles({
    name: 'grupo.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`correo,carrera,nombre,departamento,facultad,modalidad\n${free.email},Derecho\n`),
  })
  await page.getByRole('button', { name: 'Cargar grupo' }).click()
  await expectDialog(page, 'Grupo cargado', 'El grupo se ha cargado correctamente')
  await closeDialog(page)
  await page.getByText('Pegar correos').click()
  await page.getByLabel('Correos de los estudiantes').fill(`otro.nuevo@utpl.edu.ec\n${taken.email}`)
  await page.getByRole('button', { name: 'Agregar estudiantes' }).click()
  await expectDialog(page, 'Error')
  await expect(dialog(page)).toContainText(
    'Hay estudiantes que ya pertenecen al grupo activo de otro docente; no se agregó ningún estudiante.',
  )
  await expect(dialog(page).getByRole('listitem')).toHaveText([refusal])
  await expect(dialog(page)).not.toContainText(first.email)
  expect((await shownDialogs(page)).slice(-2).map((d) => d.title)).toEqual(['Agregando estudiantes', 'Error'])
  await closeDialog(page)
  await page.goto('/admin/estudiantes')
  await expect(page.getByRole('heading', { name: 'Estudiantes del grupo (1)' })).toBeVisible()
  await firstApi.dispose()
})
