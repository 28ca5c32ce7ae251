// What a Microsoft sign-in leaves in the tab, and what sign-out takes away
// (docs/product.md, "Public pages and sign-in"): MSAL's token cache in
// sessionStorage (emptied as soon as the server has answered: the Graph
// access token is never kept), and the saved location a new user does not
// go to. Same local issuer as microsoft.spec.ts.
import type { Page } from '@playwright/test'
import { test, expect, untilClosed } from './support/microsoft-fixtures'
import { uniqueEmail } from './support/server'

const nav = (page: Page) => page.getByRole('navigation', { name: 'Principal' })

const msalKeys = (page: Page) => page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('msal.')))

test('a new user ignores the saved location, and the tab keeps none of MSAL’s tokens', async ({ page, issuer }) => {
  // A guest asked for /auth/historial: the location is saved for after sign-in.
  await page.goto('/auth/historial')
  await expect(page).toHaveURL(/\/inicio$/)
  expect(await page.evaluate(() => sessionStorage.getItem('simulador.redirect'))).toBe('/auth/historial')

  await issuer.setNext({ user: { email: uniqueEmail('nuevo'), name: 'Nuevo Estudiante Vera' } })
  const popup = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Exámenes' }).click()
  await untilClosed(popup)

  // A new user goes to /auth/carreras, and the saved location is used up.
  await expect(page).toHaveURL(/\/auth\/carreras$/)
  expect(await page.evaluate(() => sessionStorage.getItem('simulador.redirect'))).toBeNull()
  // The server accepted the ID token: MSAL's cache (the ID token, the
  // account, the Graph access token) is gone from the tab.
  expect(await msalKeys(page)).toEqual([])
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toMatch(/accesstoken|idtoken|refreshtoken/i)

  await page.evaluate(() => localStorage.setItem('dato', 'x'))
  await nav(page).getByRole('button', { name: 'Cerrar Sesión' }).click()
  await expect(page).toHaveURL(/\/inicio$/)
  await expect(nav(page).getByRole('link', { name: 'Iniciar Sesión' })).toBeVisible()
  expect(await msalKeys(page)).toEqual([])
  expect(await page.evaluate(() => localStorage.length)).toBe(0)
})

test('after a reload no token is back; Cerrar Sesión removes any MSAL key left without loading MSAL', async ({ page, issuer }) => {
  await issuer.setNext({ user: { email: uniqueEmail('recarga'), name: 'Rita Recarga Paz' } })
  await page.goto('/login')
  const popup = page.waitForEvent('popup')
  await page.getByRole('button', { name: 'Iniciar con UTPL' }).click()
  await untilClosed(popup)
  await expect(page).toHaveURL(/\/auth\/carreras$/)

  await page.reload()
  await expect(nav(page).getByRole('button', { name: 'Cerrar Sesión' })).toBeVisible()
  expect(await msalKeys(page)).toEqual([])
  // A key an older version of the app left behind.
  await page.evaluate(() => sessionStorage.setItem('msal.token.keys.cliente', '{"accessToken":["x"]}'))
  // Signing out does not load MSAL for it.
  const scripts: string[] = []
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()))
  await nav(page).getByRole('button', { name: 'Cerrar Sesión' }).click()
  await expect(page).toHaveURL(/\/inicio$/)
  expect(await msalKeys(page)).toEqual([])
  expect(scripts.filter((u) => /msal/i.test(u))).toEqual([])
})
