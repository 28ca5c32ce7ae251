// The route table and its guards (docs/product.md, "Roles and sections").
import { apiAs, loadGroup, ok } from './support/admin'
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

test('a session revoked while the app is open ends on /inicio at the next request, local storage cleared', async ({
  page,
  server,
  request,
}) => {
  const student = await server.createUser('estudiante')
  await signIn(page, student)
  await page.goto('/auth/carreras')
  await expect(page.getByRole('heading', { name: 'Carreras', level: 1 })).toBeVisible()
  await page.evaluate(() => localStorage.setItem('dato', 'x'))
  // Revoked on the server (as by a sign-out elsewhere); the page keeps its
  // cookie and its cached session.
  const cookie = (await page.context().cookies()).find((c) => c.name === '__Host-simulador_session')
  expect(cookie).toBeDefined()
  expect((await request.post('/api/auth/logout', { headers: { Cookie: `__Host-simulador_session=${cookie!.value}` } })).status()).toBe(204)

  await page.getByRole('navigation', { name: 'Mis exámenes' }).getByRole('link', { name: 'Historial' }).click()
  await expect(page).toHaveURL(/\/inicio$/)
  expect(await page.evaluate(() => localStorage.length)).toBe(0)
  await expect(page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Iniciar Sesión' })).toBeVisible()
})

test('a student whose group is finalized while the app is open is sent from /test to /auth/carreras', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante')
  const tutorApi = await apiAs(server, tutor)
  await loadGroup(tutorApi, [student.email])
  await signIn(page, student)
  await page.goto('/auth/carreras')
  // The app has the session (may enter /test) and the overview cached.
  const practise = page.getByRole('link', { name: 'Practicar' })
  await expect(practise).toBeVisible()

  await ok(await tutorApi.post('/api/admin/group/finalize'))
  await practise.click() // in-app navigation: no reload
  await expect(page).toHaveURL(/\/auth\/carreras$/)
  await expect(page.getByText('Aún no pertenece a un grupo activo')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Practicar' })).toHaveCount(0)
  await tutorApi.dispose()
})
