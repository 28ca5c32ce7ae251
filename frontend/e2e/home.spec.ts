// The public home page (docs/product.md, "Public pages and sign-in").
import { test, expect, signIn, expectDialog, closeDialog } from './support/fixtures'
import { startServer } from './support/server'

test('has the intro, Exámenes, the about section, the gallery and the footer', async ({ page }) => {
  await page.goto('/inicio')
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Examen Complexivo Oral')
  await expect(page.getByRole('button', { name: 'Exámenes' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Sobre el proyecto' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Galería' })).toBeVisible()
  // No video configured: no broken player.
  await expect(page.locator('video')).toHaveCount(0)
  await expect(page.getByText('El video de presentación estará disponible próximamente.')).toBeVisible()
  const footer = page.locator('footer')
  await expect(footer).toContainText('© 2023 Universidad Técnica Particular de Loja')
  await expect(footer.getByRole('link', { name: 'derecho@utpl.edu.ec' })).toHaveAttribute('href', 'mailto:derecho@utpl.edu.ec')
  await expect(footer.getByRole('link', { name: /Facebook/ })).toHaveAttribute('href', /facebook\.com/)
})

test('Exámenes takes a signed-in user to /auth/carreras', async ({ page, server }) => {
  await signIn(page, await server.createUser('estudiante'))
  await page.goto('/inicio')
  await page.getByRole('button', { name: 'Exámenes' }).click()
  await expect(page).toHaveURL(/\/auth\/carreras$/)
})

test('Exámenes for a guest explains that the university sign-in is not configured, then offers the login page', async ({ page }) => {
  await page.goto('/inicio')
  await page.getByRole('button', { name: 'Exámenes' }).click()
  await expectDialog(page, 'Cuenta institucional no disponible')
  await closeDialog(page)
  await expect(page).toHaveURL(/\/login$/)
})

test('institution, links and the intro video come from configuration', async ({ browser }) => {
  const server = await startServer({
    INSTITUTION_NAME: 'Universidad de Prueba',
    INTRO_VIDEO_URL: 'https://storage.example.com/video/intro.mp4',
    UNIVERSITY_URL: 'https://www.example.edu',
  })
  try {
    const page = await browser.newPage({ baseURL: server.url })
    await page.goto('/inicio')
    await expect(page.locator('footer')).toContainText('© 2023 Universidad de Prueba')
    await expect(page.locator('video')).toHaveAttribute('src', 'https://storage.example.com/video/intro.mp4')
    await expect(page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: /UTPL/ })).toHaveAttribute(
      'href',
      'https://www.example.edu',
    )
    await page.close()
  } finally {
    await server.stop()
  }
})
