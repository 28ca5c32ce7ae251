// The login page: labels, buttons and dialogs that must not change
// (docs/product.md).
import { test, expect, expectDialog, closeDialog } from './support/fixtures'

test.describe('login page', () => {
  test('has the fixed labels and buttons', async ({ page }) => {
    await page.goto('/login')
    await expect(page.getByLabel('Correo Electrónico')).toHaveAttribute('type', 'email')
    await expect(page.getByLabel('Contraseña')).toHaveAttribute('type', 'password')
    await expect(page.getByRole('button', { name: 'Continuar' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Iniciar con UTPL' })).toBeVisible()
  })

  for (const [label, email, password] of [
    ['both empty', '', ''],
    ['password empty', 'alguien@utpl.edu.ec', ''],
    ['email empty', '', 'clave-segura-123'],
  ] as const) {
    test(`${label}: Error / Debe ingresar un correo y contraseña`, async ({ page }) => {
      await page.goto('/login')
      await page.getByLabel('Correo Electrónico').fill(email)
      await page.getByLabel('Contraseña').fill(password)
      await page.getByRole('button', { name: 'Continuar' }).click()
      await expectDialog(page, 'Error', 'Debe ingresar un correo y contraseña')
      await closeDialog(page)
      await expect(page).toHaveURL(/\/login$/)
    })
  }

  test('wrong password and unknown email: Oops... / El correo o la constraseña son incorrectos', async ({ page, server }) => {
    const student = await server.createUser('estudiante')
    await page.goto('/login')
    for (const [email, password] of [
      [student.email, 'otra-clave-mala'],
      ['nadie@utpl.edu.ec', 'clave-segura-123'],
    ]) {
      await page.getByLabel('Correo Electrónico').fill(email)
      await page.getByLabel('Contraseña').fill(password)
      await page.getByRole('button', { name: 'Continuar' }).click()
      await expectDialog(page, 'Oops...', 'El correo o la constraseña son incorrectos')
      await closeDialog(page)
    }
    await expect(page).toHaveURL(/\/login$/)
  })

  test('signs in and lands on /auth/carreras; email is case-insensitive', async ({ page, server }) => {
    const student = await server.createUser('estudiante')
    await page.goto('/login')
    await page.getByLabel('Correo Electrónico').fill(student.email.toUpperCase())
    await page.getByLabel('Contraseña').fill(student.password)
    await page.getByRole('button', { name: 'Continuar' }).click()
    await expect(page).toHaveURL(/\/auth\/carreras$/)
    await expect(page.getByRole('button', { name: 'Cerrar Sesión' })).toBeVisible()
  })

  test('returns to the saved location after sign-in', async ({ page, server }) => {
    const tutor = await server.createUser('tutor')
    await page.goto('/admin')
    await expect(page).toHaveURL(/\/inicio$/)
    await page.getByRole('link', { name: 'Iniciar Sesión' }).click()
    await page.getByLabel('Correo Electrónico').fill(tutor.email)
    await page.getByLabel('Contraseña').fill(tutor.password)
    await page.getByRole('button', { name: 'Continuar' }).click()
    await expect(page).toHaveURL(/\/admin\/grupo$/)
  })

  test('Iniciar con UTPL explains that the university sign-in is not configured', async ({ page }) => {
    await page.goto('/login')
    await page.getByRole('button', { name: 'Iniciar con UTPL' }).click()
    await expectDialog(
      page,
      'Cuenta institucional no disponible',
      'El inicio de sesión con la cuenta institucional (UTPL) no está configurado en este servidor. Ingrese con su correo y contraseña.',
    )
    await closeDialog(page)
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByLabel('Correo Electrónico')).toBeVisible()
  })

  test('repeated failures are slowed down with a clear message', async ({ page, server }) => {
    const student = await server.createUser('estudiante')
    await page.goto('/login')
    for (let i = 0; i < 5; i++) {
      const res = await page.request.post('/api/auth/login', { data: { email: student.email, password: 'mala' } })
      expect(res.status()).toBe(401)
    }
    await page.getByLabel('Correo Electrónico').fill(student.email)
    await page.getByLabel('Contraseña').fill(student.password)
    await page.getByRole('button', { name: 'Continuar' }).click()
    await expectDialog(page, 'Demasiados intentos')
    await expect(page).toHaveURL(/\/login$/)
  })
})
