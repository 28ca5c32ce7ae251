// Moving in from the earlier Firebase app (docs/moving-in.md): an account
// imported with `simulador users import-firebase` signs in in the browser
// with the password it had there, and again after its first sign-in
// replaced the old hash.
import { fileURLToPath } from 'node:url'
import { test, expect } from './support/fixtures'

const exportFile = fileURLToPath(new URL('../../backend/internal/testsupport/earlierapp/auth-export.json', import.meta.url))
// The fixture's project parameters: the sample project firebase/scrypt publishes.
const signerKey = 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=='
const ana = { email: 'ana.alumna@utpl.edu.ec', password: 'Ana-Clave-Anterior-1' }

test('an imported account signs in with its old password', async ({ page, server }) => {
  const { stdout } = await server.cliWithInput(
    `${signerKey}\n`,
    'users',
    'import-firebase',
    exportFile,
    '--salt-separator',
    'Bw==',
    '--rounds',
    '8',
    '--mem-cost',
    '14',
  )
  expect(stdout).toContain('9 accounts')

  for (const round of ['the old hash', 'the new hash']) {
    await test.step(round, async () => {
      await page.goto('/login')
      await page.getByLabel('Correo Electrónico').fill(ana.email)
      await page.getByLabel('Contraseña').fill(ana.password)
      await page.getByRole('button', { name: 'Continuar' }).click()
      await expect(page).toHaveURL(/\/auth\/carreras$/)
      await page.getByRole('button', { name: 'Cerrar Sesión' }).click()
      await expect(page.getByRole('link', { name: 'Iniciar Sesión' })).toBeVisible()
    })
  }
})
