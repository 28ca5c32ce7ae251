import { defineConfig } from '@playwright/test'
import { chromiumArgs } from './playwright.config'
import type { WorkerOptions } from './e2e/support/fixtures'
import type { EngineName } from './e2e/engines/support/driver'

// The journeys in the other engines a student may use (make e2e-engines):
// Debian's Firefox ESR over WebDriver BiDi (puppeteer-core) and WebKitGTK's
// MiniBrowser over WebDriver (WebKitWebDriver, under xvfb-run), in its
// default ephemeral session, as a private tab. Playwright runs the tests
// and their fixtures; its own page is Debian's Chromium, which the journeys
// use to play a take recorded in another engine. See e2e/engines/support.
export default defineConfig<object, WorkerOptions & { engine: EngineName }>({
  testDir: 'e2e/engines',
  outputDir: 'test-results/engines',
  timeout: 180_000,
  expect: { timeout: 10_000 },
  // Each test starts a real browser or two beside the server: one worker
  // keeps two cores from being shared by two rehearsals' recorders.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: [...chromiumArgs, '--autoplay-policy=no-user-gesture-required'],
    },
    locale: 'es-EC',
    timezoneId: 'America/Guayaquil',
    mediaStore: 'directory',
  },
  projects: [
    { name: 'firefox', use: { engine: 'firefox' } },
    { name: 'webkit', use: { engine: 'webkit' } },
  ],
})
