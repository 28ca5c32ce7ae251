// axe-core finds no serious or critical violation on each page.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { test, expect, signIn } from './support/fixtures'

async function expectAccessible(page: Page) {
  // Let transitions settle so colours are measured in their final state.
  await page.waitForTimeout(300)
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([])
}

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
