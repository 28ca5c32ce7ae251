// A tutor resets a student's password with a one-time link; the student
// opens it (/login#restablecer=TOKEN), chooses a password once, and every
// session the student had ends.
import { test, expect, apiAs, loadGroup, expectAccessible } from './support/admin'
import { dialog, expectDialog, closeDialog } from './support/fixtures'

test('the tutor issues a link, the student uses it once, a second use is refused', async ({ page, browser, server }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante', { name: 'Olvido Clave Ríos' })
  const tutorApi = await apiAs(server, tutor)
  await loadGroup(tutorApi, [student.email])
  // The student is signed in somewhere (a lab computer, say).
  const lab = await apiAs(server, student)

  // The tutor, on Estudiantes.
  await page.request.post('/api/auth/login', { data: { email: tutor.email, password: tutor.password } })
  await page.goto('/admin/estudiantes')
  await page.getByRole('button', { name: 'Restablecer la contraseña de Olvido Clave Ríos' }).click()
  await expectDialog(page, 'Restablecer contraseña')
  // Mail is not configured on this server: only the link is offered.
  await expect(dialog(page).getByRole('button', { name: 'Enviar por correo' })).toBeHidden()
  await dialog(page).getByRole('button', { name: 'Generar enlace' }).click()
  await expectDialog(page, 'Enlace generado')
  const link = await dialog(page).getByLabel('Enlace').inputValue()
  expect(link).toMatch(new RegExp(`^${server.url}/login#restablecer=[A-Za-z0-9_-]{43}$`))
  await expect(dialog(page).getByRole('button', { name: 'Copiar enlace' })).toBeVisible()
  await expectAccessible(page)
  await dialog(page).getByRole('button', { name: 'Cerrar' }).click()

  // The student opens the link in a fresh browser.
  const studentContext = await browser.newContext({ baseURL: server.url })
  const sp = await studentContext.newPage()
  const requests: string[] = []
  sp.on('request', (r) => requests.push(r.url()))
  await sp.goto(link)
  await expect(sp.getByRole('heading', { name: 'Nueva contraseña' })).toBeVisible()
  // The token leaves the address bar at once, and never went to the server.
  await expect(sp).toHaveURL(new RegExp(`${server.url}/login$`))
  expect(requests.filter((u) => u.includes('restablecer'))).toEqual([])
  await expectAccessible(sp)

  await sp.getByRole('textbox', { name: 'Nueva contraseña', exact: true }).fill('password1')
  await sp.getByLabel('Repita la nueva contraseña').fill('password1')
  await sp.getByRole('button', { name: 'Guardar contraseña' }).click()
  await expectDialog(sp, 'Contraseña no válida')
  await closeDialog(sp)
  await sp.getByRole('textbox', { name: 'Nueva contraseña', exact: true }).fill('mi-clave-recuperada-9')
  await sp.getByLabel('Repita la nueva contraseña').fill('mi-clave-recuperada-9')
  await sp.getByRole('button', { name: 'Guardar contraseña' }).click()
  await expectDialog(sp, 'Contraseña actualizada', 'Ya puede ingresar con su correo y la nueva contraseña.')
  await closeDialog(sp)

  // The sign-in form is back, and the new password opens a session.
  await sp.getByLabel('Correo Electrónico').fill(student.email)
  await sp.getByLabel('Contraseña', { exact: true }).fill('mi-clave-recuperada-9')
  await sp.getByRole('button', { name: 'Continuar' }).click()
  await expect(sp).toHaveURL(/\/auth\/carreras$/)
  // The lab computer's session ended with the reset.
  expect((await lab.get('/api/me/attempts')).status()).toBe(401)

  // The same link, a second time.
  const again = await (await browser.newContext({ baseURL: server.url })).newPage()
  await again.goto(link)
  await again.getByRole('textbox', { name: 'Nueva contraseña', exact: true }).fill('otra-clave-distinta-7')
  await again.getByLabel('Repita la nueva contraseña').fill('otra-clave-distinta-7')
  await again.getByRole('button', { name: 'Guardar contraseña' }).click()
  await expectDialog(again, 'Enlace no válido', 'Este enlace ya se usó. Si necesita otro, pídalo a su tutor.')
  await closeDialog(again)
  await expect(again.getByRole('button', { name: 'Continuar' })).toBeVisible()
  await Promise.all([tutorApi.dispose(), lab.dispose(), studentContext.close(), again.context().close()])
})
