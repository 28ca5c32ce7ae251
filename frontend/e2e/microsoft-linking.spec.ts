// F-14 and S3-05: a Microsoft account is linked to an existing profile only
// by a user name in a domain the university lists (MS_EMAIL_DOMAINS), and by
// tid:oid after that; the email claim, even with xms_edov, never links an
// existing profile. Tutors may be required to use the university account
// (TUTORS_REQUIRE_MICROSOFT). Same local issuer as microsoft.spec.ts.
import type { Page } from '@playwright/test'
import { test as base, expect, dialog, untilClosed } from './support/microsoft-fixtures'
import { startServer, uniqueEmail, type ServerHandle } from './support/server'
import { expectDialog, closeDialog } from './support/fixtures'

const nav = (page: Page) => page.getByRole('navigation', { name: 'Principal' })
const utplButton = (page: Page) => page.getByRole('button', { name: 'Iniciar con UTPL' })

async function popupSignIn(page: Page) {
  const popup = page.waitForEvent('popup')
  await utplButton(page).click()
  await untilClosed(popup)
}

async function sessionOf(page: Page, base = '') {
  return ((await (await page.request.get(`${base}/api/session`)).json()) as { user: { id: string; mail: string; role: string } | null })
    .user
}

base(
  'an account whose email claim names a tutor, without a verified address, is not linked to the tutor',
  async ({ page, issuer, server }) => {
    const tutor = await server.createUser('tutor')
    // A directory entry whose mail attribute was set to the tutor's address;
    // its user name is in a domain the university does not list.
    await issuer.setNext({
      user: { email: tutor.email, preferredUsername: `impostor.${Date.now()}@contoso.onmicrosoft.com`, name: 'Impostor' },
    })
    await page.goto('/login')
    await popupSignIn(page)
    await expectDialog(page, 'No se pudo vincular su cuenta')
    await expect(dialog(page)).toContainText('correo verificado de la universidad')
    await closeDialog(page)
    expect(await sessionOf(page)).toBeNull()
    await expect(page).toHaveURL(/\/login$/)

    // xms_edov vouches only for the email's domain, not for the mailbox:
    // it never links an existing profile, so the impostor is refused again.
    await issuer.setNext({
      user: {
        email: tutor.email,
        preferredUsername: `impostor2.${Date.now()}@contoso.onmicrosoft.com`,
        emailVerified: true,
        name: 'Impostor',
      },
    })
    await popupSignIn(page)
    await expectDialog(page, 'No se pudo vincular su cuenta')
    await closeDialog(page)
    expect(await sessionOf(page)).toBeNull()

    // The tutor's own account, whose user name is in a listed domain,
    // links; from then on its object id decides.
    const oid = '5d1c0e9a-0000-4000-8000-00000000a001'
    await issuer.setNext({
      user: { email: tutor.email, preferredUsername: tutor.email, name: tutor.name, oid },
    })
    await popupSignIn(page)
    await expect(page).toHaveURL(/\/auth\/carreras$/)
    expect(await sessionOf(page)).toMatchObject({ mail: tutor.email, role: 'tutor' })
    await nav(page).getByRole('button', { name: 'Cerrar Sesión' }).click()
    // The sign-out must have reached the server before /login is loaded, or
    // the page would find the session and move on to /auth/carreras.
    await expect.poll(() => sessionOf(page)).toBeNull()
    await page.goto('/login')
    await issuer.setNext({
      user: { email: uniqueEmail('renombrada'), preferredUsername: 'otro@contoso.onmicrosoft.com', name: tutor.name, oid },
    })
    await popupSignIn(page)
    await expect(page).toHaveURL(/\/auth\/carreras$/)
    expect(await sessionOf(page)).toMatchObject({ mail: tutor.email, role: 'tutor' })
  },
)

// A server that requires tutors to use the university account.
const test = base.extend<object, { msOnly: ServerHandle }>({
  msOnly: [
    async ({ issuer }, use) => {
      const server = await startServer({ ...issuer.serverEnv, TUTORS_REQUIRE_MICROSOFT: 'true' })
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
})

test('with TUTORS_REQUIRE_MICROSOFT a tutor’s password is refused with a clear message; Iniciar con UTPL works', async ({
  page,
  issuer,
  msOnly,
}) => {
  const tutor = await msOnly.createUser('tutor')
  const student = await msOnly.createUser('estudiante')
  await page.goto(`${msOnly.url}/login`)
  await page.getByLabel('Correo Electrónico').fill(tutor.email)
  await page.getByLabel('Contraseña', { exact: true }).fill(tutor.password)
  await page.getByRole('button', { name: 'Continuar' }).click()
  await expectDialog(
    page,
    'Use su cuenta institucional',
    'Los tutores ingresan con su cuenta institucional: use el botón «Iniciar con UTPL», que pide la verificación de la universidad.',
  )
  await closeDialog(page)
  expect(await sessionOf(page, msOnly.url)).toBeNull()
  // A wrong password still gets the usual dialog.
  await page.getByLabel('Contraseña', { exact: true }).fill('no-es-la-clave')
  await page.getByRole('button', { name: 'Continuar' }).click()
  await expectDialog(page, 'Oops...', 'El correo o la constraseña son incorrectos')
  await closeDialog(page)

  await issuer.setNext({ user: { email: tutor.email, name: tutor.name } })
  await popupSignIn(page)
  await expect(page).toHaveURL(/\/auth\/carreras$/)
  expect(await sessionOf(page, msOnly.url)).toMatchObject({ mail: tutor.email, role: 'tutor' })

  // Students still use their passwords.
  const res = await page.request.post(`${msOnly.url}/api/auth/login`, { data: { email: student.email, password: student.password } })
  expect(res.status()).toBe(200)
  await expect.poll(() => msOnly.logs()).toContain('event=auth.login.refused')
})

// The configuration refuses the setting without Microsoft at start.
base('TUTORS_REQUIRE_MICROSOFT without Microsoft stops the server at start, naming the variable', async () => {
  await expect(startServer({ TUTORS_REQUIRE_MICROSOFT: 'true' })).rejects.toThrow(/TUTORS_REQUIRE_MICROSOFT/)
})
