// axe-core finds no serious or critical violation on each page.
import { test, expect, signIn } from './support/fixtures'
import { expectAccessible } from './support/a11y'

test('public pages', async ({ page }) => {
  for (const path of ['/inicio', '/login']) {
    await page.goto(path)
    await expectAccessible(page)
  }
  await page.setViewportSize({ width: 360, height: 740 })
  await page.goto('/inicio')
  await expectAccessible(page)
})

test('signed-in pages', async ({ page, server }) => {
  await signIn(page, await server.createUser('tutor'))
  for (const path of ['/auth/carreras', '/auth/cuenta', '/test', '/admin']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expectAccessible(page)
  }
  await page.goto('/inicio')
  await page.mouse.wheel(0, 600)
  await expectAccessible(page)
})
