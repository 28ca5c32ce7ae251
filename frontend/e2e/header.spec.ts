// Header navigation per role, the scroll colour change, and sign-out.
import { test, expect, signIn } from './support/fixtures'

const nav = (page: import('@playwright/test').Page) => page.getByRole('navigation', { name: 'Principal' })

test('guest header: Inicio, Exámenes to /login, university link, Iniciar Sesión, no Administrador', async ({ page }) => {
  await page.goto('/inicio')
  await expect(nav(page).getByRole('link', { name: 'Inicio' })).toHaveAttribute('href', '/inicio')
  await expect(nav(page).getByRole('link', { name: 'Exámenes' })).toHaveAttribute('href', '/login')
  await expect(nav(page).getByRole('link', { name: /UTPL/ })).toHaveAttribute('href', 'https://www.utpl.edu.ec')
  await expect(nav(page).getByRole('link', { name: 'Iniciar Sesión' })).toBeVisible()
  await expect(nav(page).getByText('Administrador')).toHaveCount(0)
  await expect(nav(page).getByText('Cerrar Sesión')).toHaveCount(0)
})

test('student header: Exámenes to /auth/carreras, Cerrar Sesión, no Administrador', async ({ page, server }) => {
  await signIn(page, await server.createUser('estudiante'))
  await page.goto('/inicio')
  await expect(nav(page).getByRole('link', { name: 'Exámenes' })).toHaveAttribute('href', '/auth/carreras')
  await expect(nav(page).getByRole('button', { name: 'Cerrar Sesión' })).toBeVisible()
  await expect(nav(page).getByText('Administrador')).toHaveCount(0)
  await expect(nav(page).getByText('Iniciar Sesión')).toHaveCount(0)
})

test('tutor header shows Administrador, which opens /admin', async ({ page, server }) => {
  await signIn(page, await server.createUser('tutor'))
  await page.goto('/inicio')
  await nav(page).getByRole('link', { name: 'Administrador' }).click()
  await expect(page).toHaveURL(/\/admin\/grupo$/)
})

test('the header is transparent at the top and white once scrolled', async ({ page }) => {
  await page.goto('/inicio')
  const header = page.locator('header').first()
  const bg = () => header.evaluate((el) => getComputedStyle(el).backgroundColor)
  await expect.poll(bg).toBe('rgba(0, 0, 0, 0)')
  await page.mouse.wheel(0, 800)
  await expect(header).toHaveAttribute('data-scrolled', 'true')
  await expect.poll(bg).toBe('rgb(255, 255, 255)')
  await page.evaluate(() => window.scrollTo(0, 0))
  await expect.poll(bg).toBe('rgba(0, 0, 0, 0)')
})

test('Cerrar Sesión clears local storage, revokes the session and goes to /inicio', async ({ page, server }) => {
  await signIn(page, await server.createUser('estudiante'))
  await page.goto('/auth/carreras')
  await page.evaluate(() => localStorage.setItem('dato', 'x'))
  const cookieBefore = (await page.context().cookies()).find((c) => c.name === '__Host-simulador_session')
  expect(cookieBefore).toBeDefined()
  await nav(page).getByRole('button', { name: 'Cerrar Sesión' }).click()
  await expect(page).toHaveURL(/\/inicio$/)
  expect(await page.evaluate(() => localStorage.length)).toBe(0)
  await expect(nav(page).getByRole('link', { name: 'Iniciar Sesión' })).toBeVisible()
  // The old token no longer opens a session, even if replayed.
  const replay = await page.request.get('/api/session', { headers: { Cookie: `__Host-simulador_session=${cookieBefore!.value}` } })
  expect((await replay.json()).user).toBeNull()
})

test('on a 360 px phone the menu opens from a button and works by keyboard', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/inicio')
  const toggle = page.getByRole('button', { name: 'Abrir menú' })
  await expect(toggle).toHaveAttribute('aria-expanded', 'false')
  await toggle.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('button', { name: 'Cerrar menú' })).toHaveAttribute('aria-expanded', 'true')
  await page.getByRole('link', { name: 'Iniciar Sesión' }).last().click()
  await expect(page).toHaveURL(/\/login$/)
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
  expect(overflow).toBe(false)
})
