// Behind Firebase Hosting (the Playwright project "hosting" only): the
// deploy's post-deploy checks pass against the local stand-in for Hosting,
// and the browser keeps no cookie but __session, the only one Hosting lets
// through, at any step of a sign-in.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { test, expect } from './support/fixtures'
import { repoRoot } from './support/server'

const run = promisify(execFile)

test('scripts/post-deploy-check.sh passes against the site', async ({ server }) => {
  expect(server.hosting, 'this spec runs in the hosting project').toBe(true)
  const { stdout } = await run(join(repoRoot, 'scripts', 'post-deploy-check.sh'), [server.url]).catch(
    (e: { stdout: string; stderr: string }) => {
      throw new Error(`post-deploy-check.sh failed:\n${e.stdout}${e.stderr}`)
    },
  )
  const lines = stdout.trim().split('\n')
  expect(lines.length).toBeGreaterThanOrEqual(8)
  expect(lines.filter((l) => !l.startsWith('pass'))).toEqual([])
})

test('a password sign-in keeps only __session in the browser', async ({ page, server }) => {
  const student = await server.createUser('estudiante')
  await page.goto('/login')
  await page.getByLabel('Correo Electrónico').fill(student.email)
  await page.getByLabel('Contraseña', { exact: true }).fill(student.password)
  await page.getByRole('button', { name: 'Continuar' }).click()
  await expect(page).toHaveURL(/\/auth\/carreras$/)
  const names = (await page.context().cookies()).map((c) => c.name)
  expect(names).toEqual(['__session'])
  // The server's answers pass Hosting without a cookie of another name.
  const res = await page.request.get('/api/session')
  expect(res.headers()['cache-control']).toBe('no-store')
  expect((await res.json()).user.mail).toBe(student.email)
})
