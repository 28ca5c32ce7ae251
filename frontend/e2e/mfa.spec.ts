// Two-step verification for a tutor who signs in with a password: the
// enrolment (QR code and secret, a code computed here as an authenticator
// app would), then sign-in with a code and with a recovery code.
import type { Page } from '@playwright/test'
import { test, expect, signIn, dialog, expectDialog, closeDialog } from './support/fixtures'
import { expectAccessible } from './support/admin'
import { totp } from './support/totp'

const nav = (page: Page) => page.getByRole('navigation', { name: 'Principal' })

async function passwordStep(page: Page, email: string, password: string) {
  await page.goto('/login')
  await page.getByLabel('Correo Electrónico').fill(email)
  await page.getByLabel('Contraseña', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Continuar' }).click()
  await expect(page.getByRole('heading', { name: 'Verificación en dos pasos' })).toBeVisible()
}

async function codeStep(page: Page, code: string) {
  await page.getByLabel('Código de verificación').fill(code)
  await page.getByRole('button', { name: 'Verificar' }).click()
}

test('a tutor turns on TOTP, then signs in with a code and with a recovery code', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  await signIn(page, tutor)
  await page.goto('/auth/cuenta')
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Verificación en dos pasos' }) })
  await card.getByLabel('Contraseña actual').fill(tutor.password)
  await card.getByRole('button', { name: 'Configurar' }).click()
  const qr = card.getByRole('img', { name: /Código QR/ })
  await expect(qr).toBeVisible()
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100)
  const secret = (await card.getByTestId('totp-secret').textContent())!.replace(/\s/g, '')
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await expectAccessible(page)

  await card.getByLabel('Código de 6 dígitos').fill('000000')
  await card.getByRole('button', { name: 'Activar' }).click()
  await expectDialog(page, 'Código incorrecto')
  await closeDialog(page)
  const enrolledAt = Date.now()
  await card.getByLabel('Código de 6 dígitos').fill(totp(secret, enrolledAt))
  await card.getByRole('button', { name: 'Activar' }).click()
  const list = card.getByRole('list', { name: 'Códigos de recuperación' })
  await expect(list.getByRole('listitem')).toHaveCount(10)
  const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim())
  expect(codes[0]).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/)
  await expectAccessible(page)
  await card.getByRole('button', { name: 'Ya los guardé' }).click()
  await expect(card).toContainText('Le quedan 10 códigos de recuperación.')

  // Sign in again: the password, then a code. The enrolment used this
  // step's code, so the next step's is typed (accepted: clocks drift).
  await nav(page).getByRole('button', { name: 'Cerrar Sesión' }).click()
  await expect(page).toHaveURL(/\/inicio$/) // signed out on the server before the next sign-in
  await passwordStep(page, tutor.email, tutor.password)
  expect((await (await page.request.get('/api/session')).json()).user).toBeNull()
  await expectAccessible(page)
  await codeStep(page, '123456')
  await expectDialog(page, 'Código incorrecto')
  await closeDialog(page)
  await codeStep(page, totp(secret, enrolledAt + 30_000))
  await expect(page).toHaveURL(/\/auth\/carreras$/)
  await expect(nav(page).getByRole('link', { name: 'Administrador' })).toBeVisible()

  // Without the phone: a recovery code, once.
  await nav(page).getByRole('button', { name: 'Cerrar Sesión' }).click()
  await expect(page).toHaveURL(/\/inicio$/) // signed out on the server before the next sign-in
  await passwordStep(page, tutor.email, tutor.password)
  await codeStep(page, codes[2].toUpperCase())
  await expect(page).toHaveURL(/\/auth\/carreras$/)
  await nav(page).getByRole('button', { name: 'Cerrar Sesión' }).click()
  await expect(page).toHaveURL(/\/inicio$/) // signed out on the server before the next sign-in
  await passwordStep(page, tutor.email, tutor.password)
  await codeStep(page, codes[2])
  await expectDialog(page, 'Código incorrecto')
  await closeDialog(page)
  await page.getByRole('button', { name: 'Volver' }).click()
  await expect(page.getByRole('button', { name: 'Continuar' })).toBeVisible()

  // The operator can turn it off for a tutor who lost the phone.
  const { stdout } = await server.cli('users', 'reset-mfa', '--email', tutor.email)
  expect(stdout).toContain('no longer has two-step verification')
  await page.getByLabel('Correo Electrónico').fill(tutor.email)
  await page.getByLabel('Contraseña', { exact: true }).fill(tutor.password)
  await page.getByRole('button', { name: 'Continuar' }).click()
  await expect(page).toHaveURL(/\/auth\/carreras$/)
  await expect(dialog(page)).toHaveCount(0)
})
