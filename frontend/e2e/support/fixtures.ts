import { test as base, expect, type Page } from '@playwright/test'
import { startServer, type MediaStore, type ServerHandle, type TestUser } from './server'

/**
 * Options a Playwright project sets (playwright.config.ts): where recordings
 * go, and whether the browser reaches the server through the Firebase
 * Hosting stand-in (bin/hosting-test-proxy).
 */
export type WorkerOptions = { mediaStore: MediaStore; hosting: boolean }
type WorkerFixtures = WorkerOptions & { server: ServerHandle }

// Each worker runs its own server and database; tests create their own users.
export const test = base.extend<object, WorkerFixtures>({
  mediaStore: ['directory', { scope: 'worker', option: true }],
  hosting: [false, { scope: 'worker', option: true }],
  server: [
    async ({ mediaStore, hosting }, use) => {
      const server = await startServer({}, { media: mediaStore, hosting })
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.url),
})

export { expect }

/** Signs in through the API (the page's context keeps the cookie). */
export async function signIn(page: Page, user: TestUser) {
  const res = await page.request.post('/api/auth/login', { data: { email: user.email, password: user.password } })
  expect(res.status(), await res.text()).toBe(200)
}

/** The visible SweetAlert2 dialog. */
export function dialog(page: Page) {
  return page.locator('.swal2-popup')
}

export async function expectDialog(page: Page, title: string, text?: string) {
  const d = dialog(page)
  await expect(d).toBeVisible()
  await expect(d.locator('.swal2-title')).toHaveText(title)
  if (text !== undefined) await expect(d.locator('.swal2-html-container')).toHaveText(text)
}

/**
 * Closes the dialog with its confirm button (or the named one) and waits
 * until SweetAlert2 has given focus back (src/lib/dialogs.ts marks that on
 * <html data-dialog>): that focus may scroll the page, and a click aimed
 * before it lands would hit whatever the scroll brought under the pointer.
 */
export async function closeDialog(page: Page, button?: string) {
  const d = dialog(page)
  await (button ? d.getByRole('button', { name: button }) : d.locator('.swal2-confirm')).click()
  await dialogGone(page)
}

/** Waits until no dialog is open or closing (see closeDialog). */
export async function dialogGone(page: Page) {
  await expect(dialog(page)).toBeHidden()
  await expect(page.locator('html')).not.toHaveAttribute('data-dialog')
}
