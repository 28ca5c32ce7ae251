// The engine-neutral driver the Firefox and WebKit journeys use. Playwright
// drives only its own browser builds, which cannot be downloaded here, so
// these specs run in Playwright's test runner (fixtures, the server, the
// reports) but drive Debian's Firefox ESR over WebDriver BiDi (firefox.ts)
// and WebKitGTK's MiniBrowser over classic WebDriver (webkit.ts) through
// this small interface: go to a page, find an element by role and name, by
// text or by label, click it, fill it, wait for it, and run a script.
//
// Elements are found in the page by one function (findTargets below), the
// same in every engine, so a spec means the same thing everywhere. Clicks
// and typing go through each protocol's real input, not element.click().

export type EngineName = 'firefox' | 'webkit'

/** A string matches a whole name (trimmed, spaces collapsed); a RegExp matches anywhere. */
export type Name = string | RegExp

export type Role = 'button' | 'link' | 'radio' | 'checkbox' | 'heading' | 'textbox' | 'combobox' | 'timer' | 'meter' | 'navigation' | 'row'

/** What to find: by ARIA role and accessible name, by visible text, by label, or by CSS (optionally with a text). */
export type Target =
  | { role: Role; name?: Name; within?: string }
  | { text: Name; within?: string }
  | { label: Name; within?: string }
  | { css: string; text?: Name; within?: string }

/** A Target as it crosses into the page: a RegExp becomes its source and flags. */
export type WireName = { s: string } | { re: string; flags: string }
export type WireTarget = {
  role?: Role
  text?: WireName
  label?: WireName
  name?: WireName
  css?: string
  within?: string
}

export function toWire(t: Target): WireTarget {
  const name = (n: Name | undefined): WireName | undefined =>
    n === undefined ? undefined : typeof n === 'string' ? { s: n } : { re: n.source, flags: n.flags }
  if ('role' in t) return { role: t.role, name: name(t.name), within: t.within }
  if ('label' in t) return { label: name(t.label), within: t.within }
  if ('css' in t) return { css: t.css, text: name(t.text), within: t.within }
  return { text: name(t.text), within: t.within }
}

export function describe(t: Target): string {
  if ('role' in t) return `${t.role}${t.name !== undefined ? ` "${t.name}"` : ''}`
  if ('label' in t) return `field labelled "${t.label}"`
  if ('css' in t) return `${t.css}${t.text !== undefined ? ` with text "${t.text}"` : ''}`
  return `text "${t.text}"`
}

/**
 * findTargets runs in the page (serialised with toString, so it refers to
 * nothing outside itself) and returns the visible elements a target means,
 * in document order. Accessible names are approximated the way our pages
 * build them: aria-label, aria-labelledby, a <label>, then the text.
 */
export function findTargets(t: WireTarget): Element[] {
  const norm = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim()
  const matches = (n: WireName | undefined, value: string) => {
    if (!n) return true
    if ('s' in n) return norm(value) === norm(n.s)
    return new RegExp(n.re, n.flags).test(norm(value))
  }
  const visible = (el: Element) => {
    if (!(el instanceof HTMLElement || el instanceof SVGElement)) return false
    if (el.getClientRects().length === 0) return false
    const style = getComputedStyle(el)
    return style.visibility !== 'hidden'
  }
  const byIds = (ids: string) =>
    ids
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ')
  const labelOf = (el: Element) => {
    const aria = el.getAttribute('aria-label')
    if (aria) return aria
    const by = el.getAttribute('aria-labelledby')
    if (by) return byIds(by)
    if (el.id) {
      const label = document.querySelector(`label[for="${CSS.escape(el.id)}"]`)
      if (label) return label.textContent ?? ''
    }
    const wrapping = el.closest('label')
    if (wrapping) return wrapping.textContent ?? ''
    return null
  }
  const accessibleName = (el: Element) => {
    const l = labelOf(el)
    if (l !== null) return l
    if (el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'button')) return el.value
    return el.textContent ?? ''
  }
  const roleSelectors: Record<string, string> = {
    button: 'button, [role="button"], input[type="submit"], input[type="button"]',
    link: 'a[href], [role="link"]',
    radio: 'input[type="radio"], [role="radio"]',
    checkbox: 'input[type="checkbox"], [role="checkbox"]',
    heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
    textbox:
      'textarea, input:not([type]), input[type="text"], input[type="email"], input[type="password"], input[type="search"], input[type="tel"], input[type="url"], [role="textbox"]',
    combobox: 'select, [role="combobox"]',
    timer: '[role="timer"]',
    meter: 'meter, [role="meter"]',
    navigation: 'nav, [role="navigation"]',
    row: 'tr, [role="row"]',
  }
  const roots: ParentNode[] = t.within ? Array.from(document.querySelectorAll(t.within)) : [document]
  const all = (sel: string) => roots.flatMap((r) => Array.from(r.querySelectorAll(sel)))
  // Radios and checkboxes may be drawn by their label; the label is what a user sees.
  const seen = (el: Element) => visible(el) || (el instanceof HTMLInputElement && !!el.closest('label') && visible(el.closest('label')!))
  if (t.role) return all(roleSelectors[t.role]).filter((el) => seen(el) && matches(t.name, accessibleName(el)))
  if (t.label) return all('input, select, textarea, [role="textbox"]').filter((el) => seen(el) && matches(t.label, labelOf(el) ?? ''))
  if (t.css) return all(t.css).filter((el) => visible(el) && matches(t.text, el.textContent ?? ''))
  // By text: the innermost visible elements whose text matches.
  const hits = all('body *').filter((el) => visible(el) && matches(t.text, (el as HTMLElement).innerText ?? el.textContent ?? ''))
  return hits.filter((el) => !hits.some((other) => other !== el && el.contains(other)))
}

/**
 * bringToRest runs in the page on an element about to be clicked. It
 * scrolls the element to the middle of the viewport (instantly: the page
 * scrolls smoothly), so it does not sit under the fixed header or the
 * phone's sticky status bar, and then waits until nothing moves it: no
 * finite animation runs on it or on a box around it, and its box is the
 * same in two frames in a row. A SweetAlert2 dialog grows into place for a
 * few hundred milliseconds: a click aimed at its button's box while it grows
 * can land beside the button, and the dialog stays open. On a loaded machine
 * an animation can stand still for two frames before it starts, so the box
 * alone does not tell. Returns whether the element came to rest within two
 * seconds.
 */
export async function bringToRest(el: Element): Promise<boolean> {
  el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' })
  const frame = () => new Promise<void>((r) => requestAnimationFrame(() => r()))
  const box = () => {
    const r = el.getBoundingClientRect()
    return [r.x, r.y, r.width, r.height].join()
  }
  // A spinner's endless turn moves nothing around it; a finite animation
  // (a dialog growing, a panel sliding in) does.
  const moving = () =>
    document.getAnimations().some((a) => {
      if (a.playState !== 'running' || !(a.effect instanceof KeyframeEffect)) return false
      const target = a.effect.target
      return target instanceof Element && target.contains(el) && a.effect.getComputedTiming().iterations !== Infinity
    })
  const until = Date.now() + 2_000
  let last = box()
  while (Date.now() < until) {
    await frame()
    const now = box()
    if (now === last && !moving()) return true
    last = now
  }
  return false
}

export type WaitOptions = { timeout?: number; state?: 'visible' | 'hidden' }

/** One browser of one engine, with one tab. */
export interface EngineBrowser {
  readonly engine: EngineName
  /** The engine's product and version, for the report. */
  readonly version: string
  /** Opens a path of the server (or a full URL) and waits for the page to load. */
  goto(pathOrUrl: string): Promise<void>
  reload(): Promise<void>
  url(): Promise<string>
  /** Clicks the first visible element the target means, with the protocol's real pointer input. */
  click(target: Target, opts?: { timeout?: number }): Promise<void>
  /** Replaces the value of a text field by typing, as a user does. */
  fill(target: Target, value: string): Promise<void>
  /** Chooses a file (a path on this machine) in a file input. */
  upload(target: Target, path: string): Promise<void>
  /** Waits until the target is visible (or, with state 'hidden', until nothing matches). */
  waitFor(target: Target, opts?: WaitOptions): Promise<void>
  count(target: Target): Promise<number>
  textOf(target: Target): Promise<string>
  attributeOf(target: Target, name: string): Promise<string | null>
  /** Runs a function in the page; it must refer to nothing outside itself. */
  evaluate<R, A extends unknown[]>(fn: (...args: A) => R | Promise<R>, ...args: A): Promise<Awaited<R>>
  /** Sizes the page's viewport as closely as the engine allows; returns what it got. */
  setViewport(width: number, height: number): Promise<{ width: number; height: number }>
  screenshot(path: string): Promise<void>
  /** What the engine's driver process printed last, where there is one (for a failed test's report). */
  driverLog(): Promise<string>
  close(): Promise<void>
}

/**
 * traced wraps a browser so that every call of its interface is written to
 * a trail: when it started (milliseconds since the browser opened), what it
 * was given, how long it took and how it ended. A test that runs out of time
 * reports only the test's timeout; the trail names the call still waiting,
 * and the fixture prints it when the test failed.
 */
export function traced(b: EngineBrowser): { browser: EngineBrowser; trail: () => string[] } {
  const opened = Date.now()
  type Entry = { started: number; call: string; outcome?: string }
  const entries: Entry[] = []
  const isTarget = (a: object) => ['role', 'label', 'css', 'text'].some((k) => k in a)
  const show = (a: unknown) =>
    typeof a === 'function'
      ? String(a).replace(/\s+/g, ' ').slice(0, 60)
      : typeof a === 'object' && a !== null && isTarget(a)
        ? describe(a as Target)
        : JSON.stringify(a)
  const browser = new Proxy(b, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown
      if (typeof value !== 'function' || typeof key !== 'string' || key === 'driverLog') return value
      return (...args: unknown[]) => {
        const entry: Entry = { started: Date.now(), call: `${key}(${args.map(show).join(', ').slice(0, 160)})` }
        entries.push(entry)
        if (entries.length > 60) entries.shift()
        const end = (how: string) => (entry.outcome = `${how} after ${Date.now() - entry.started} ms`)
        return (value as (...a: unknown[]) => Promise<unknown>).apply(target, args).then(
          (v) => (end('ok'), v),
          (e: unknown) => {
            end(`failed: ${String(e).slice(0, 300)}`)
            throw e
          },
        )
      }
    },
  })
  const trail = () =>
    entries.map((e) => `+${e.started - opened} ms ${e.call}: ${e.outcome ?? `STILL WAITING after ${Date.now() - e.started} ms`}`)
  return { browser, trail }
}

/** pollUntil calls check until it returns a value other than undefined, or fails after the deadline. */
export async function pollUntil<T>(what: string, timeout: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeout
  let last: unknown
  for (let delay = 50; ; delay = Math.min(delay * 2, 250)) {
    try {
      const v = await check()
      if (v !== undefined) return v
    } catch (e) {
      last = e
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeout} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`)
    await new Promise((r) => setTimeout(r, delay))
  }
}

/**
 * A function for the page, as source text that uses findTargets as "find".
 * The page never compiles code itself (its Content-Security-Policy forbids
 * eval): each protocol sends this text as the script to run.
 */
export function withFind(body: string): string {
  return `(t, extra) => { const find = ${findTargets.toString()}; ${body} }`
}

/** Runs a function given as source text in the page with JSON arguments. */
export type CallInPage = <R>(fnSource: string, ...args: unknown[]) => Promise<R>

/** The parts of EngineBrowser that are the same in every engine. */
export function commonQueries(call: CallInPage) {
  const count = (target: Target) => call<number>(withFind('return find(t).length'), toWire(target))
  return {
    count,
    async waitFor(target: Target, opts: WaitOptions = {}) {
      const hidden = opts.state === 'hidden'
      await pollUntil(`${describe(target)} to be ${hidden ? 'hidden' : 'visible'}`, opts.timeout ?? 15_000, async () =>
        (await count(target)) > 0 !== hidden ? true : undefined,
      )
    },
    async textOf(target: Target) {
      const text = await call<string | null>(withFind('const el = find(t)[0]; return el ? el.innerText : null'), toWire(target))
      if (text === null) throw new Error(`no ${describe(target)}`)
      return text
    },
    attributeOf: (target: Target, name: string) =>
      call<string | null>(withFind('const el = find(t)[0]; return el ? el.getAttribute(extra) : null'), toWire(target), name),
  }
}
