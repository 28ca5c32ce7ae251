// A tutor resets a student's password with a one-time link that goes only
// to the student's address (a tutor who saw it could choose the student's
// password). This server has no mail configured, so the tutor is told to
// ask the administrator; the link itself (sent, used once, ending the
// student's sessions) is covered by the API tests with a real SMTP server.
import { test, expect, apiAs, loadGroup, expectAccessible } from './support/admin'
import { dialog, expectDialog, closeDialog } from './support/fixtures'

test('without mail the tutor gets no link, and a bad link is refused', async ({ page, browser, server }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante', { name: 'Olvido Clave Ríos' })
  const tutorApi = await apiAs(server, tutor)
  await loadGroup(tutorApi, [student.email])

  await page.request.post('/api/auth/login', { data: { email: tutor.email, password: tutor.password } })
  // Behind Firebase Hosting the page asks GET /api/config, and the press
  // may come first: its answer is held back until the press, which waits
  // for it (in the directory project the page carries it; nothing is held).
  let pressed: () => void = () => undefined
  const afterPress = new Promise<void>((r) => (pressed = r))
  await page.route('**/api/config', async (route) => {
    await afterPress
    await route.continue()
  })
  await page.goto('/admin/estudiantes')
  await page.getByRole('button', { name: 'Restablecer la contraseña de Olvido Clave Ríos' }).click()
  pressed()
  await expectDialog(page, 'Restablecer contraseña')
  await expect(dialog(page)).toContainText('solo se envía al correo del estudiante')
  await expect(dialog(page).getByRole('button', { name: 'Generar enlace' })).toHaveCount(0)
  await expectAccessible(page)
  await closeDialog(page)

  // A link that is not one.
  const sp = await (await browser.newContext({ baseURL: server.url })).newPage()
  await sp.goto('/login#restablecer=' + 'x'.repeat(43))
  await expect(sp.getByRole('heading', { name: 'Nueva contraseña' })).toBeVisible()
  await sp.getByRole('textbox', { name: 'Nueva contraseña', exact: true }).fill('mi-clave-recuperada-9')
  await sp.getByLabel('Repita la nueva contraseña').fill('mi-clave-recuperada-9')
  await sp.getByRole('button', { name: 'Guardar contraseña' }).click()
  await expectDialog(sp, 'Enlace no válido')
  await closeDialog(sp)
  await Promise.all([tutorApi.dispose(), sp.context().close()])
})
