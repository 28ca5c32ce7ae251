// The account page (/auth/cuenta): changing the password and ending
// sessions, from the link on /auth/carreras.
import type { Page } from '@playwright/test'
import { test, expect, signIn, dialog, expectDialog, closeDialog } from './support/fixtures'
import { expectAccessible } from './support/admin'

const nav = (page: Page) => page.getByRole('navigation', { name: 'Principal' })

async function signInThroughTheForm(page: Page, email: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('Correo Electrónico').fill(email)
  await page.getByLabel('Contraseña', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Continuar' }).click()
}

test('a student changes the password from Mi cuenta; this session stays and the other ends', async ({ page, browser, server }) => {
  const student = await server.createUser('estudiante')
  // The same student on another device.
  const phone = await browser.newContext({ baseURL: server.url })
  const phonePage = await phone.newPage()
  await signIn(phonePage, student)

  await signIn(page, student)
  await page.goto('/auth/carreras')
  await page.getByRole('link', { name: 'Mi cuenta' }).click()
  await expect(page).toHaveURL(/\/auth\/cuenta$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Mi cuenta' })).toBeVisible()
  await expectAccessible(page)
  // Students are not offered two-step verification.
  await expect(page.getByRole('heading', { name: 'Verificación en dos pasos' })).toHaveCount(0)

  const form = page.locator('form', { has: page.getByRole('button', { name: 'Cambiar contraseña' }) })
  await form.getByLabel('Contraseña actual').fill('no-es-la-clave')
  await form.getByLabel('Nueva contraseña', { exact: true }).fill('una-clave-nueva-larga')
  await form.getByLabel('Repita la nueva contraseña').fill('una-clave-nueva-larga')
  await form.getByRole('button', { name: 'Cambiar contraseña' }).click()
  await expectDialog(page, 'No se cambió la contraseña', 'La contraseña actual no es correcta.')
  await closeDialog(page)

  await form.getByLabel('Contraseña actual').fill(student.password)
  await form.getByRole('button', { name: 'Cambiar contraseña' }).click()
  await expectDialog(page, 'Contraseña actualizada', 'Se cerró 1 sesión en otro dispositivo. Esta sesión sigue abierta.')
  await closeDialog(page)
  await expect(page.getByRole('table', { name: 'Sus sesiones activas' }).getByRole('row')).toHaveCount(2) // header + this one

  // The phone was signed out.
  await phonePage.goto('/auth/cuenta')
  await expect(phonePage).toHaveURL(/\/inicio$/)
  await phone.close()

  // The new password opens a session; the old one does not.
  await nav(page).getByRole('button', { name: 'Cerrar Sesión' }).click()
  await expect(page).toHaveURL(/\/inicio$/) // signed out on the server before the next sign-in
  await signInThroughTheForm(page, student.email, student.password)
  await expectDialog(page, 'Oops...', 'El correo o la constraseña son incorrectos')
  await closeDialog(page)
  await signInThroughTheForm(page, student.email, 'una-clave-nueva-larga')
  await expect(page).toHaveURL(/\/auth\/carreras$/)
})

test('a user sees their sessions, with this one marked, and ends another; that browser is signed out', async ({
  page,
  browser,
  server,
}) => {
  const tutor = await server.createUser('tutor')
  const other = await browser.newContext({
    baseURL: server.url,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  })
  const otherPage = await other.newPage()
  await signIn(otherPage, tutor)
  await otherPage.goto('/auth/carreras')

  await signIn(page, tutor)
  await page.goto('/auth/cuenta')
  const table = page.getByRole('table', { name: 'Sus sesiones activas' })
  await expect(table.getByRole('row')).toHaveCount(3)
  const mine = table.getByRole('row', { name: /Esta sesión/ })
  await expect(mine).toContainText('Chrome en Linux')
  await expect(mine.getByRole('button')).toHaveCount(0)
  const firefox = table.getByRole('row', { name: /Firefox en Linux/ })
  await expect(firefox).toContainText('127.0.0.1')
  await firefox.getByRole('button', { name: /^Cerrar la sesión de Firefox en Linux/ }).click()
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(dialog(page)).toHaveCount(0)

  // The other browser's next request finds no session.
  await otherPage.getByRole('link', { name: 'Historial' }).click()
  await expect(otherPage).toHaveURL(/\/inicio$/)
  await expect(nav(otherPage).getByRole('link', { name: 'Iniciar Sesión' })).toBeVisible()

  // "Cerrar las demás sesiones" ends every other one at once (two more
  // browsers: signing in again in one browser replaces its session).
  const more = [await browser.newContext({ baseURL: server.url }), await browser.newContext({ baseURL: server.url })]
  for (const c of more) await signIn(await c.newPage(), tutor)
  await page.reload()
  await expect(table.getByRole('row')).toHaveCount(4)
  await page.getByRole('button', { name: 'Cerrar las demás sesiones' }).click()
  await expectDialog(page, 'Sesiones cerradas', 'Se cerraron 2 sesiones.')
  await closeDialog(page)
  await expect(table.getByRole('row')).toHaveCount(2)
  await expect(page.getByRole('button', { name: 'Cerrar las demás sesiones' })).toHaveCount(0)
  await Promise.all([other.close(), ...more.map((c) => c.close())])
})
