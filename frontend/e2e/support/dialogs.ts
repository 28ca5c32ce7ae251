import type { Page } from '@playwright/test'

declare global {
  interface Window {
    __dialogs?: { title: string; text: string }[]
  }
}

// recordDialogs makes the page remember every SweetAlert2 dialog it shows,
// in order, so a test can check a sequence ("Cargando grupo" then "Grupo
// cargado") even when the first one closes too fast to see.
export async function recordDialogs(page: Page) {
  await page.addInitScript(() => {
    window.__dialogs = []
    const seen = new WeakMap<Element, string>()
    const check = () => {
      const popup = document.querySelector('.swal2-popup')
      if (!popup) return
      const title = popup.querySelector('.swal2-title')?.textContent ?? ''
      const text = popup.querySelector('.swal2-html-container')?.textContent ?? ''
      const key = `${title}|${text}`
      if (seen.get(popup) !== key && title) {
        seen.set(popup, key)
        window.__dialogs!.push({ title, text })
      }
    }
    new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
  })
}

export async function dialogTitles(page: Page): Promise<string[]> {
  return page.evaluate(() => (window.__dialogs ?? []).map((d) => d.title))
}
