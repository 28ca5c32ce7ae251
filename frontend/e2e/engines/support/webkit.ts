// WebKitGTK (Safari's engine) over W3C WebDriver: Debian's WebKitWebDriver
// starts the MiniBrowser of libwebkit2gtk-4.1 with mock capture devices. It
// needs a display (make e2e-engines runs under xvfb-run). Its automation
// session is ephemeral, as a private tab is: that is the point, since
// IndexedDB behaves differently there.
//
// The client is these few W3C endpoints over fetch rather than WebdriverIO:
// the journeys need about a dozen commands, and a client this size shows
// exactly what is sent, with nothing that could try to download a driver.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { bringToRest, commonQueries, describe, pollUntil, toWire, withFind, type EngineBrowser, type Target } from './driver'

export const webkitDriverBinary = process.env.WEBKIT_WEBDRIVER ?? '/usr/bin/WebKitWebDriver'
// dpkg -L libwebkit2gtk-4.1-0 lists it here on amd64; WEBKIT_MINIBROWSER names another.
export const miniBrowserBinary = process.env.WEBKIT_MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

// WebKitGTK 2.50's driver now and then never answers a navigation whose
// page has finished loading (document.readyState "complete", the page
// drawn and running): the load's end can reach the browser after the
// navigation's record has been retired, and the driver's wait for it is
// then never resolved. With its default 300 s page-load timeout that
// outlasts the test, which CI reported as a bare "Test timeout of 180000ms
// exceeded"; a soak under load caught it on the first page of a fresh
// session. So the driver is told not to wait for loads at all
// (pageLoadStrategy "none": its wait returns at once), and goto and reload
// wait for the new document themselves (loadedAfter below), as the journeys
// wait for every other state.
const pageLoadStrategy = 'none'
// Bounds on the rest: a script that never settles, and a driver that stops
// answering at all (commandBound), fail naming the command.
const sessionTimeouts = { script: 30_000, pageLoad: 30_000, implicit: 0 }
const commandBound = 60_000

// The mark left on a document about to be replaced, so that its own
// "complete" is never taken for the new document's.
const LEFT = '__engineJourneyLeftThisDocument'

// The key under which W3C WebDriver sends an element reference.
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'
type ElementRef = { [ELEMENT]: string }

class WebDriverError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`)
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

async function startDriver(): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  if (!process.env.DISPLAY) throw new Error('WebKitGTK needs a display: run the engines suite with make e2e-engines (xvfb-run -a)')
  for (const bin of [webkitDriverBinary, miniBrowserBinary])
    if (!existsSync(bin)) throw new Error(`${bin} is missing (apt-get install webkit2gtk-driver)`)
  const port = await freePort()
  const child = spawn(webkitDriverBinary, [`--port=${port}`], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()))
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()))
  const base = `http://127.0.0.1:${port}`
  await pollUntil(`WebKitWebDriver on port ${port}`, 20_000, async () => {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${child.exitCode}: ${out}`)
    const res = await fetch(`${base}/status`)
    return res.ok ? true : undefined
  })
  return { child, base, output: () => out }
}

export async function openWebKit(baseURL: string): Promise<EngineBrowser> {
  const driver = await startDriver()
  // Every command is bounded. The session's own timeouts (below) end a
  // script or a page load first, with WebDriver's error; this bound catches
  // a driver that stops answering at all, and names the command.
  const send = async <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> => {
    let res: Response
    try {
      res = await fetch(`${driver.base}${path}`, {
        method,
        headers: body === undefined ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(commandBound),
      })
    } catch (e) {
      if (e instanceof DOMException && e.name === 'TimeoutError')
        throw new WebDriverError('no answer', `WebKitWebDriver did not answer ${method} ${path} within ${commandBound} ms`)
      throw e
    }
    const json = (await res.json()) as { value: T & { error?: string; message?: string } }
    if (!res.ok) throw new WebDriverError(json.value?.error ?? String(res.status), json.value?.message ?? '')
    return json.value
  }
  let session: { sessionId: string; capabilities: { browserName: string; browserVersion: string } }
  try {
    session = await send('POST', '/session', {
      capabilities: {
        alwaysMatch: {
          pageLoadStrategy,
          timeouts: sessionTimeouts,
          'webkitgtk:browserOptions': {
            binary: miniBrowserBinary,
            args: ['--automation', '--enable-media-stream=true', '--enable-mock-capture-devices=true'],
          },
        },
      },
    })
  } catch (e) {
    driver.child.kill('SIGTERM')
    throw new Error(`${String(e)}\n${driver.output()}`, { cause: e })
  }
  const s = `/session/${session.sessionId}`
  const url = (p: string) => new URL(p, baseURL).toString()

  // Scripts run as async scripts, so a function that returns a promise is awaited.
  const call = async <R>(fnSource: string, ...args: unknown[]): Promise<R> => {
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve().then(() => (${fnSource}).apply(null, Array.prototype.slice.call(arguments, 0, -1)))
        .then((value) => done({ value }), (e) => done({ error: String(e && e.stack || e) }));`
    const out = await send<{ value?: R; error?: string }>('POST', `${s}/execute/async`, { script, args })
    if (out.error) throw new Error(out.error)
    return out.value as R
  }

  const element = (target: Target, timeout = 15_000) =>
    pollUntil(`${describe(target)} to click`, timeout, async () => {
      const el = await send<ElementRef | null>('POST', `${s}/execute/sync`, {
        script: `return (${withFind('return find(t)[0] ?? null')})(arguments[0])`,
        args: [toWire(target)],
      })
      return el ?? undefined
    })

  // loadedAfter marks the document on screen, starts a navigation, and
  // waits until a document without the mark has loaded (readyState
  // "complete"; the blank page a session starts on does not count). It
  // returns the address that document was loaded from. A script sent while
  // the navigation is under way may fail (the document it ran in went
  // away): that is one more look, not an error.
  const loadedAfter = async (navigate: () => Promise<unknown>, what: string) => {
    await call(`() => { window['${LEFT}'] = true }`).catch(() => undefined)
    await navigate()
    try {
      // WebDriver sends a script's undefined back as null: not there yet.
      return await pollUntil(
        `${what} to load`,
        20_000,
        async () =>
          (await call<string | null>(
            `() => window['${LEFT}'] || location.protocol === 'about:' || document.readyState !== 'complete' ? null : performance.getEntriesByType('navigation')[0]?.name ?? location.href`,
          )) ?? undefined,
      )
    } catch (e) {
      throw new Error(`${String(e)}; the page then: ${await pageState()}`, { cause: e })
    }
  }

  // What a page that did not finish loading had: its state, the resources
  // it had fetched (with their end), and its scripts and links.
  const pageState = () =>
    call<unknown>(`() => ({
      readyState: document.readyState,
      url: location.href,
      fetched: performance.getEntriesByType('resource').map((r) => r.name + ' ' + Math.round(r.startTime) + '-' + Math.round(r.responseEnd) + ' ms'),
      asked: Array.from(document.querySelectorAll('script[src], link[href]')).map((e) => e.src || e.rel + ' ' + e.href),
      text: (document.body?.innerText ?? '').slice(0, 120),
    })`).then(
      (v) => JSON.stringify(v),
      (e: unknown) => `unreadable (${String(e)})`,
    )

  // The microphone is granted as a user granting the prompt would, where the
  // driver has the Permissions extension command. WebKitGTK 2.50's driver
  // has not (unknown command): its automation session lets the mock
  // microphone be used without a prompt.
  await send('POST', `${s}/permissions`, { descriptor: { name: 'microphone' }, state: 'granted' }).catch((e: unknown) => {
    if (!(e instanceof WebDriverError && e.code === 'unknown command')) throw e
  })
  await send('POST', `${s}/window/rect`, { width: 1280, height: 800 })

  return {
    engine: 'webkit',
    version: `${session.capabilities.browserName} ${session.capabilities.browserVersion}`,
    ...commonQueries(call),
    async goto(p) {
      // A navigation cancels the module loads still in flight in the page
      // it leaves, and the app takes a failed lazy chunk for a new version
      // and reloads that page (lib/stale-chunk), which replaces this
      // navigation. The journeys wait for each page they open to be drawn
      // (signInWithPassword waits for the landing page), so no chunk should
      // be in flight here; if one was, the document is the old page, and
      // going again is what a user would do.
      const wanted = new URL(url(p))
      await pollUntil(`${p} to load`, 30_000, async () => {
        const loaded = await loadedAfter(() => send('POST', `${s}/url`, { url: wanted.toString() }), p)
        return new URL(loaded).pathname === wanted.pathname ? true : undefined
      })
    },
    async reload() {
      await loadedAfter(() => send('POST', `${s}/refresh`, {}), 'the reload')
    },
    url: () => send<string>('GET', `${s}/url`),
    async click(target, opts) {
      // The page may render the element again between finding and clicking
      // it (a stale reference): find it again. WebDriver scrolls an element
      // only until it is in view, which may leave it under the fixed header
      // (element click intercepted), and does not wait for it to stop
      // moving: bringToRest does both first.
      await pollUntil(`a click on ${describe(target)}`, opts?.timeout ?? 15_000, async () => {
        const el = await element(target, opts?.timeout)
        try {
          if (!(await call<boolean>(bringToRest.toString(), el))) return undefined
          await send('POST', `${s}/element/${el[ELEMENT]}/click`, {})
          return true
        } catch (e) {
          if (e instanceof WebDriverError && (e.code === 'stale element reference' || e.code === 'element click intercepted'))
            return undefined
          throw e
        }
      })
    },
    async fill(target, value) {
      const el = await element(target)
      await send('POST', `${s}/element/${el[ELEMENT]}/clear`, {})
      if (value !== '') await send('POST', `${s}/element/${el[ELEMENT]}/value`, { text: value })
    },
    async upload(target, path) {
      const el = await element(target)
      await send('POST', `${s}/element/${el[ELEMENT]}/value`, { text: path })
    },
    evaluate: (fn, ...args) => call(fn.toString(), ...args),
    async setViewport(width, height) {
      // WebDriver sizes the window; the toolbar takes part of it, so size
      // again by the difference. MiniBrowser's toolbar keeps the window at
      // least about 450 px wide: the width may stay above the one asked.
      // The window manager applies a size after the command has answered,
      // so each step waits for the height it asked for, read twice alike.
      type Size = { width: number; height: number }
      const settled = (what: string, done: (rect: Size, page: Size) => boolean) => {
        let last = ''
        return pollUntil(what, 15_000, async () => {
          const rect = await send<Size>('GET', `${s}/window/rect`)
          const page = await call<Size>('() => ({ width: innerWidth, height: innerHeight })')
          const reading = JSON.stringify([rect.width, rect.height, page.width, page.height])
          const same = reading === last
          last = reading
          return same && done(rect, page) ? { rect, page } : undefined
        })
      }
      await send('POST', `${s}/window/rect`, { width, height })
      const { rect, page } = await settled('the window to take its size', (r, p) => r.height === height && p.height < height)
      const outer = { width: width + rect.width - page.width, height: height + rect.height - page.height }
      await send('POST', `${s}/window/rect`, outer)
      return (await settled('the page to take its size', (r, p) => r.height === outer.height && p.height === height)).page
    },
    async screenshot(path) {
      writeFileSync(path, Buffer.from(await send<string>('GET', `${s}/screenshot`), 'base64'))
    },
    driverLog: async () => driver.output().slice(-4_000),
    async close() {
      await send('DELETE', s).catch(() => undefined)
      if (driver.child.exitCode !== null || driver.child.signalCode !== null) return
      const exited = new Promise((r) => driver.child.once('exit', r))
      driver.child.kill('SIGTERM')
      await exited
    },
  }
}
