// Debian's Firefox ESR over WebDriver BiDi, through puppeteer-core (which
// downloads nothing: it starts the binary it is given). The preferences give
// a fake microphone that needs no permission prompt; MediaRecorder then
// records audio/webm;codecs=opus.
import puppeteer, { type ElementHandle, type Page } from 'puppeteer-core'
import { bringToRest, commonQueries, describe, pollUntil, toWire, withFind, type EngineBrowser, type Target } from './driver'

export const firefoxBinary = process.env.FIREFOX ?? '/usr/bin/firefox-esr'

export async function openFirefox(baseURL: string): Promise<EngineBrowser> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxBinary,
    headless: true,
    // Puppeteer's default bound on a protocol call (180 s) is the test's
    // whole budget; a call that never returns should fail naming itself.
    protocolTimeout: 60_000,
    defaultViewport: { width: 1280, height: 800 },
    extraPrefsFirefox: {
      'media.navigator.streams.fake': true,
      'media.navigator.permission.disabled': true,
      // Played media needs no user gesture (the tutor's player is started by a script).
      'media.autoplay.default': 0,
      'intl.accept_languages': 'es-EC, es',
    },
  })
  const version = await browser.version()
  const page: Page = (await browser.pages())[0] ?? (await browser.newPage())
  page.setDefaultTimeout(30_000)
  const url = (p: string) => new URL(p, baseURL).toString()

  const call = async <R>(fnSource: string, ...args: unknown[]): Promise<R> =>
    (await page.evaluate(`(${fnSource}).apply(null, ${JSON.stringify(args)})`)) as R

  const element = async (target: Target, timeout = 15_000): Promise<ElementHandle<Element>> =>
    pollUntil(`${describe(target)} to click`, timeout, async () => {
      const handle = await page.evaluateHandle(`(${withFind('return find(t)[0] ?? null')})(${JSON.stringify(toWire(target))})`)
      const el = handle.asElement() as ElementHandle<Element> | null
      if (!el) await handle.dispose()
      return el ?? undefined
    })

  return {
    engine: 'firefox',
    version,
    ...commonQueries(call),
    async goto(p) {
      // Firefox reports NS_BINDING_ABORTED when the page starts a navigation
      // of its own meanwhile: a navigation cancels the module loads still in
      // flight, and the app takes the failed lazy chunk for a new version
      // and reloads the page it was leaving (lib/stale-chunk). The journeys
      // wait for each page to be drawn before leaving it, so this should not
      // happen; if it does, go again, as a user would.
      const wanted = new URL(url(p))
      await pollUntil(`${p} to load`, 20_000, async () => {
        try {
          await page.goto(wanted.toString(), { waitUntil: 'load' })
        } catch (e) {
          if (!String(e).includes('NS_BINDING_ABORTED')) throw e
          return undefined
        }
        return true
      })
    },
    async reload() {
      await page.reload({ waitUntil: 'load' })
    },
    url: async () => page.url(),
    async click(target, opts) {
      // Scrolled only into view, an element can sit under the fixed header,
      // and the click would open the logo's link instead; a growing dialog
      // moves its buttons. bringToRest waits for both.
      const el = await pollUntil(`${describe(target)} to come to rest`, opts?.timeout ?? 15_000, async () => {
        const found = await element(target, opts?.timeout)
        if (await found.evaluate(bringToRest)) return found
        await found.dispose()
        return undefined
      })
      await el.click()
      await el.dispose()
    },
    async fill(target, value) {
      const el = await element(target)
      // Select what is there, so typing replaces it.
      await el.evaluate((node) => (node as HTMLInputElement).select())
      if (value === '') await page.keyboard.press('Backspace')
      else await el.type(value)
      await el.dispose()
    },
    async upload(target, path) {
      const el = (await element(target)) as ElementHandle<HTMLInputElement>
      await el.uploadFile(path)
      await el.dispose()
    },
    evaluate: (fn, ...args) => call(fn.toString(), ...args),
    async setViewport(width, height) {
      await page.setViewport({ width, height })
      return call<{ width: number; height: number }>('() => ({ width: innerWidth, height: innerHeight })')
    },
    async screenshot(path) {
      await page.screenshot({ path: path as `${string}.png` })
    },
    driverLog: async () => '',
    async close() {
      await browser.close()
    },
  }
}
