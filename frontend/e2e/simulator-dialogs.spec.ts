// Regression for lib/dialogs.ts (shared; changed on the student-side
// branch): when the server answers before SweetAlert2 has loaded, the
// loading dialog is still shown first, and its spinner does not stay on the
// dialog that replaces it.
import { test, expect, signIn, expectDialog } from './support/fixtures'
import { dialogTitles, recordDialogs } from './support/dialogs'

test('a loading dialog replaced before SweetAlert2 loaded: both seen, no spinner left', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  await recordDialogs(page)
  await signIn(page, tutor)
  // SweetAlert2 is held back until the server has answered the upload, so
  // the answer always comes first, however slow the machine.
  let answered: () => void = () => undefined
  const serverAnswered = new Promise<void>((r) => (answered = r))
  page.on('response', (res) => {
    if (new URL(res.url()).pathname === '/api/admin/group' && res.request().method() === 'POST') answered()
  })
  await page.route('**/assets/sweetalert2*.js', async (route) => {
    await serverAnswered
    await route.continue()
  })
  await page.goto('/admin/grupo')
  await page.getByLabel('Archivo del grupo').setInputFiles({
    name: 'g.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('email,degree,name,department,faculty,modality\r\nlenta.carga@utpl.edu.ec,Derecho\r\n'),
  })
  await page.getByRole('button', { name: 'Cargar grupo' }).click()
  await expectDialog(page, 'Grupo cargado')
  await expect(page.locator('.swal2-confirm')).toBeVisible()
  await expect(page.locator('.swal2-loader')).toBeHidden()
  expect(await dialogTitles(page)).toEqual(['Cargando grupo', 'Grupo cargado'])
})
