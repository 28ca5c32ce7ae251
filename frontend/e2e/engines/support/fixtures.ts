// Fixtures of the Firefox and WebKit journeys (playwright.engines.config.ts):
// each worker runs its own server (short phase timings allowed), and a test
// opens browsers of any engine with open(), which closes them at the end
// (with a screenshot of each when the test failed). The project's engine is
// the `engine` option; Playwright's own page is Chromium, for the journeys
// that play a take in a third engine.
import { existsSync } from 'node:fs'
import { test as base, expect } from '../../support/simulator'
import { startServer, type ServerHandle } from '../../support/server'
import { traced, type EngineBrowser, type EngineName } from './driver'
import { firefoxBinary, openFirefox } from './firefox'
import { miniBrowserBinary, openWebKit, webkitDriverBinary } from './webkit'

export { expect }

/** Why an engine cannot run here, or null when it can. */
export function missing(engine: EngineName): string | null {
  if (engine === 'firefox') return existsSync(firefoxBinary) ? null : `${firefoxBinary} is not installed (apt-get install firefox-esr)`
  for (const bin of [webkitDriverBinary, miniBrowserBinary])
    if (!existsSync(bin)) return `${bin} is not installed (apt-get install webkit2gtk-driver)`
  if (!process.env.DISPLAY) return 'no display for WebKitGTK (run under xvfb-run -a, as make e2e-engines does)'
  return null
}

type EngineFixtures = {
  engine: EngineName
  /** The other engine than the project's (Firefox for WebKit, WebKit for Firefox). */
  otherEngine: EngineName
  open: (engine?: EngineName) => Promise<EngineBrowser>
}

export const test = base.extend<EngineFixtures, { server: ServerHandle }>({
  // The session cookie without Secure: WebKitGTK keeps no Secure cookie set
  // over plain HTTP, even from 127.0.0.1 (Chromium and Firefox treat
  // loopback as secure), so a page load after sign-in would be signed out.
  // Students reach the product over HTTPS, where the cookie is Secure.
  server: [
    async ({ mediaStore }, use) => {
      const server = await startServer({ ALLOW_SHORT_TIMINGS: 'true', COOKIE_SECURE: 'never' }, { media: mediaStore })
      await use(server)
      await server.stop()
    },
    { scope: 'worker' },
  ],
  engine: ['firefox', { option: true }],
  otherEngine: async ({ engine }, use) => use(engine === 'firefox' ? 'webkit' : 'firefox'),
  open: async ({ engine, server }, use, testInfo) => {
    const serverLogFrom = server.logs().length
    const opened: { b: EngineBrowser; trail: () => string[] }[] = []
    await use(async (which = engine) => {
      const why = missing(which)
      test.skip(why !== null, why ?? '')
      const { browser: b, trail } = traced(which === 'firefox' ? await openFirefox(server.url) : await openWebKit(server.url))
      opened.push({ b, trail })
      testInfo.annotations.push({ type: 'browser', description: `${which}: ${b.version}` })
      return b
    })
    // A failed test prints each browser's trail of calls, the last one still
    // waiting if the test ran out of time, and what the driver printed: the
    // CI log is often all there is to go on.
    const failed = testInfo.status !== testInfo.expectedStatus
    for (const [i, { b, trail }] of opened.entries()) {
      if (failed) {
        const log = await b.driverLog().catch(() => '')
        console.log([`-- ${b.engine} browser ${i}: its last calls`, ...trail(), ...(log ? [`-- its driver printed:`, log] : [])].join('\n'))
        await b.screenshot(testInfo.outputPath(`${b.engine}-${i}.png`)).catch(() => undefined)
      }
      await b.close().catch(() => undefined)
    }
    if (failed) console.log(`-- the server's log during the test (its end):\n${server.logs().slice(serverLogFrom).slice(-6_000)}`)
  },
})
