// The spec's route table (section 2) and guards (sections 4 and 6).
import { test, expect, signIn } from './support/fixtures'

test.describe('guest', () => {
  test('the empty path and unknown paths redirect to /inicio', async ({ page }) => {
    await page.goto('/')
    await expect(page).toHaveURL(/\/inicio$/)
    await page.goto('/no/existe')
    await expect(page).toHaveURL(/\/inicio$/)
  })

  test('/login is public', async ({ page }) => {
    await page.goto('/login')
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByLabel('Correo Electrónico')).toBeVisible()
  })

  for (const path of ['/auth/carreras', '/auth', '/test', '/admin', '/admin/grupo']) {
    test(`${path} clears local storage and redirects to /inicio`, async ({ page }) => {
      await page.goto('/inicio')
      await page.evaluate(() => localStorage.setItem('dato', 'x'))
      await page.goto(path)
      await expect(page).toHaveURL(/\/inicio$/)
      expect(await page.evaluate(() => localStorage.length)).toBe(0)
    })
  }
})

test.describe('student without a group', () => {
  test('enters /auth but is sent from /test and /admin to /auth/carreras', async ({ page, server }) => {
    const student = await server.createUser('estudiante')
    await signIn(page, student)
    await page.goto('/auth/carreras')
    await expect(page.getByRole('heading', { name: 'Carreras', level: 1 })).toBeVisible()
    await expect(page.getByText('Aún no pertenece a un grupo activo')).toBeVisible()
    await page.goto('/auth')
    await expect(page).toHaveURL(/\/auth\/carreras$/)
    for (const path of ['/test', '/admin']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/auth\/carreras$/)
    }
  })

  test('/login redirects a signed-in user to /auth/carreras', async ({ page, server }) => {
    await signIn(page, await server.createUser('estudiante'))
    await page.goto('/login')
    await expect(page).toHaveURL(/\/auth\/carreras$/)
  })
})

test.describe('tutor', () => {
  test('enters /auth, /test and /admin', async ({ page, server }) => {
    await signIn(page, await server.createUser('tutor'))
    for (const [path, heading] of [
      ['/auth/carreras', 'Carreras'],
      ['/test', 'Simulador'],
      ['/admin', 'Administrador'],
    ] as const) {
      await page.goto(path)
      await expect(page).toHaveURL(new RegExp(`${path}(/grupo)?$`))
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
    }
  })
})

test('a revoked session on a guarded page sends the user to /inicio', async ({ page, server }) => {
  const student = await server.createUser('estudiante')
  await signIn(page, student)
  await page.goto('/auth/carreras')
  await expect(page.getByRole('heading', { name: 'Carreras', level: 1 })).toBeVisible()
  await page.context().clearCookies()
  await page.reload()
  await expect(page).toHaveURL(/\/inicio$/)
})
