import { defineConfig } from '@playwright/test'
import type { WorkerOptions } from './e2e/support/fixtures'

// End-to-end tests drive Debian's Chromium (Playwright cannot download its
// own browsers here) against the real binary, bin/simulador, which each
// worker starts on its own port and data directory (see e2e/support).
export const chromiumArgs = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--ignore-certificate-errors',
]

// The cluster spec runs only in its own projects (one per store shape),
// the hosting spec only in the hosting project.
const clusterSpec = /cluster\.spec\.ts$/
const hostingSpec = /hosting\.spec\.ts$/
// The journeys in Firefox and WebKit have their own configuration
// (playwright.engines.config.ts, make e2e-engines).
const engineSpecs = /\/engines\//

export default defineConfig<object, WorkerOptions & { clusterStore: 'postgres' | 'firestore' }>({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Deadlines, not delays: a passing test never waits for them. They are
  // wide because a state the product reaches in a second on a quiet machine
  // took over 10 s with the load average at 17 on 2 cores.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  // No retries, in CI too: a test that fails once is fixed at its cause
  // (make test-soak finds such tests). A retry with failOnFlakyTests would
  // fail the run all the same, only later and with a second run of the test.
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: chromiumArgs },
    locale: 'es-EC',
    timezoneId: 'America/Guayaquil',
    // The browser asks for less motion, which the product honours: no smooth
    // scrolling (index.css), dialogs without their zoom (lib/dialogs.ts).
    // Those animations run on timers, and on a loaded machine they outlast
    // Playwright's check that an element has stopped moving: a click on a
    // dialog that SweetAlert2 was still opening was lost, its button 65 px
    // above where it came to rest. The Firefox and WebKit journeys
    // (e2e/engines) keep the animated path under test.
    reducedMotion: 'reduce',
    // A failed test keeps its trace: every action with the page's DOM as it
    // was. Without the screencast: it made the suite about a fifth slower
    // on these 2 cores, and the failure's own screenshot is kept below.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    // Every spec, with recordings in DATA_DIR/media (the default).
    { name: 'directory', use: { mediaStore: 'directory' }, testIgnore: [clusterSpec, hostingSpec, engineSpecs] },
    // The specs where a recording must survive reloads, a lost connection
    // and a crash of the server, again with recordings in a Cloud Storage
    // bucket (bin/gcs-test-server): MEDIA_BUCKET and STORAGE_EMULATOR_HOST.
    { name: 'bucket', use: { mediaStore: 'bucket' }, testMatch: /simulator-(reload|offline|restart)\.spec\.ts$/ },
    // Two instances on one store and one bucket behind a round-robin
    // proxy, in the two production shapes: PostgreSQL, and the Firestore
    // emulator, each with fake Cloud Storage (e2e/support/cluster.ts). A
    // shape whose server is missing is skipped with a warning.
    { name: 'cluster-postgres', use: { clusterStore: 'postgres' }, testMatch: clusterSpec },
    { name: 'cluster-firestore', use: { clusterStore: 'firestore' }, testMatch: clusterSpec },
    // Through bin/hosting-test-proxy, which behaves as Firebase Hosting with
    // the repository's firebase.json (only __session passes, Hosting's
    // caching, the 60 s cut), the server deployed as the README says
    // (FIREBASE_HOSTING, TRUST_PROXY, PUBLIC_URL): the sign-ins (password,
    // password and TOTP, Microsoft, a reset link), a whole Simulacro with
    // its recordings, an LTI launch in a new tab, and the post-deploy checks.
    {
      name: 'hosting',
      use: { hosting: true },
      testMatch: /(hosting|login|mfa|microsoft|password-reset|simulator|lti)\.spec\.ts$/,
      grepInvert: /course frame|loads the group from the course|gradebook|deep link|countdown warns/,
    },
  ],
})
