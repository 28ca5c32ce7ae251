// Steps of the journeys, written once over the engine-neutral driver: sign
// in through the form, run a rehearsal, read SweetAlert2 dialogs, and check
// what the server holds of the takes.
import type { APIRequestContext } from '@playwright/test'
import { expect } from '../../support/simulator'
import type { ServerAttempt, ServerRecording } from '../../support/simulator'
import type { ServerHandle, TestUser } from '../../support/server'
import { pollUntil, type EngineBrowser, type EngineName } from './driver'

/** The recorder's format in each engine: WebKit offers only MP4, as Safari does. */
export const recordedType: Record<EngineName, RegExp> = {
  firefox: /^audio\/webm/,
  webkit: /^audio\/mp4/,
}

export async function signInWithPassword(b: EngineBrowser, user: TestUser) {
  await b.goto('/login')
  await b.fill({ label: 'Correo Electrónico' }, user.email)
  await b.fill({ label: 'Contraseña' }, user.password)
  await b.click({ role: 'button', name: 'Continuar' })
  await pollUntil('the landing page after sign-in', 15_000, async () => ((await b.url()).endsWith('/auth/carreras') ? true : undefined))
  // The address changes before the landing page's section (a lazy chunk)
  // has loaded. Opening another page meanwhile would cancel that load, and
  // the app, taking the failure for a new version, would reload
  // /auth/carreras instead (lib/stale-chunk): wait until the page is drawn.
  await b.waitFor({ role: 'heading', name: 'Carreras' }, { timeout: 20_000 })
}

/** The SweetAlert2 dialog on screen: its title and text, once it shows this title. */
export async function dialogShown(b: EngineBrowser, title: string) {
  await b.waitFor({ css: '.swal2-popup .swal2-title', text: title })
  const text = await b.evaluate(() => document.querySelector('.swal2-popup .swal2-html-container')?.textContent ?? '')
  return { title, text }
}

/** Confirms the dialog and waits until it is gone and focus is back (see closeDialog in e2e/support/fixtures.ts). */
export async function confirmDialog(b: EngineBrowser) {
  await b.click({ css: '.swal2-popup .swal2-confirm' })
  await b.waitFor({ css: '.swal2-popup' }, { state: 'hidden' })
  await b.waitFor({ css: 'html[data-dialog]' }, { state: 'hidden' })
}

export async function phaseTitle(b: EngineBrowser) {
  await b.waitFor({ css: '#fase-actual' }, { timeout: 20_000 })
  return b.textOf({ css: '#fase-actual' })
}

/** From /test to the attempt page: the mode, the microphone check, the draw. Returns the attempt id. */
export async function startAttempt(b: EngineBrowser, mode: 'Entrenamiento' | 'Simulacro' = 'Entrenamiento') {
  // From the landing page a student presses "Practicar" (a move within the
  // app); from anywhere else the journey opens /test.
  if ((await b.url()).endsWith('/auth/carreras')) await b.click({ role: 'link', name: 'Practicar' })
  else await b.goto('/test')
  await b.waitFor({ role: 'heading', name: 'Simulador' })
  await b.click({ role: 'radio', name: new RegExp(`^${mode}`) })
  await b.click({ role: 'button', name: 'Continuar' })
  await b.click({ role: 'button', name: 'Probar micrófono' })
  await b.waitFor({ text: /^Micrófono listo\./ })
  await b.click({ role: 'button', name: 'Sortear caso y comenzar' })
  return pollUntil('the attempt page', 20_000, async () => /\/test\/intento\/([^/?#]+)$/.exec(await b.url())?.[1])
}

export type Take = ServerRecording & { mimeType: string }
export type AttemptOnServer = Omit<ServerAttempt, 'recordings'> & { recordings: Take[] }

export async function getAttempt(api: APIRequestContext, id: string): Promise<AttemptOnServer> {
  const res = await api.get(`/api/attempts/${id}`)
  expect(res.status(), await res.text()).toBe(200)
  return res.json()
}

const recordedPhase = /Exposición|respuesta|cierre/
const finishButton = /^(Terminar preparación|Terminar exposición|Responder ahora|Terminar respuesta|Terminar cierre)$/

/**
 * rehearse runs an attempt already on its page through every phase with
 * the "Terminar…" buttons. In a recorded phase it waits for "Grabando" and
 * for the server to hold two chunks of the phase's take (real audio, sent
 * while recording) before ending it. atPhase runs first in every phase.
 */
export async function rehearse(b: EngineBrowser, api: APIRequestContext, id: string, atPhase?: (title: string) => Promise<void>) {
  for (;;) {
    const title = await phaseTitle(b)
    if (title === 'Autoevaluación') break
    await atPhase?.(title)
    if (recordedPhase.test(title)) {
      await b.waitFor({ text: 'Grabando' })
      await pollUntil(`two chunks of the take of "${title}" on the server`, 30_000, async () => {
        const a = await getAttempt(api, id)
        return a.recordings.some((r) => r.phase === a.current && r.chunks >= 2) ? true : undefined
      })
    }
    await b.click({ role: 'button', name: finishButton })
    await pollUntil(`the phase after "${title}"`, 20_000, async () => ((await phaseTitle(b)) !== title ? true : undefined))
  }
}

/** Answers every criterion of the rubric on the page with one level. */
export async function rateAll(b: EngineBrowser, level: 1 | 2 | 3 | 4) {
  const unchecked = { css: `input[type="radio"][value="${level}"]:not(:checked)` }
  expect(await b.count({ css: `input[type="radio"][value="${level}"]` })).toBeGreaterThan(0)
  while ((await b.count(unchecked)) > 0) await b.click(unchecked)
}

export async function selfAssess(b: EngineBrowser) {
  await rateAll(b, 3)
  await b.click({ role: 'button', name: 'Enviar autoevaluación' })
  await b.waitFor({ role: 'heading', name: 'Compare su preparación con el caso' }, { timeout: 40_000 })
}

/**
 * expectTakesOnServer waits until the server holds every take of the
 * attempt complete, with its chunks composed into one object of the
 * engine's format, and the media the API serves is exactly those bytes.
 * kinds lists the recorded phases' kinds, sorted.
 */
export async function expectTakesOnServer(
  api: APIRequestContext,
  server: ServerHandle,
  id: string,
  kinds: string[],
  type: RegExp,
): Promise<Take[]> {
  const takes = await pollUntil(`every take of ${id} complete on the server`, 30_000, async () => {
    const a = await getAttempt(api, id)
    const done = a.recordings.filter((r) => r.complete && r.chunks > 0 && r.bytes > 0)
    const got = done.map((r) => a.phases[r.phase].kind).sort()
    return done.length === a.recordings.length && JSON.stringify(got) === JSON.stringify(kinds) ? a.recordings : undefined
  })
  for (const take of takes) {
    expect(take.mimeType).toMatch(type)
    await pollUntil(`the chunks of ${take.id} composed`, 20_000, async () =>
      JSON.stringify(await server.mediaNames(`${id}/${take.id}`)) === '["recording"]' ? true : undefined,
    )
    const media = await api.get(`/api/attempts/${id}/recordings/${take.id}/media`)
    expect(media.status()).toBe(200)
    expect(media.headers()['content-type']).toMatch(type)
    expect((await media.body()).length).toBe(take.bytes)
  }
  return takes
}

/**
 * expectPlayableIn checks every audio element of the page: it plays, its
 * length is known, and (in Chromium and Firefox) seeking to its middle
 * works. WebKitGTK (GStreamer) plays both formats the recorders write but
 * does not finish a seek in them, even once it has played the take through
 * (a WebM take has no index of its clusters, and an MP4 take from WebKit is
 * a fragmented MP4 whose header holds no total length; docs/media.md). So
 * in WebKit each take is played to its end, muted, as a tutor listening to
 * it would, and its length is checked after that; seeking there is an open
 * problem of the product, not checked here.
 */
export async function expectPlayableIn(b: EngineBrowser, count: number) {
  await pollUntil(`${count} players`, 30_000, async () =>
    (await b.evaluate(() => document.querySelectorAll('audio').length)) === count ? true : undefined,
  )
  if (b.engine === 'webkit') {
    for (let i = 0; i < count; i++) {
      await b.evaluate((i) => {
        const el = document.querySelectorAll('audio')[i]
        el.muted = true
        if (el.currentTime > 0) el.load()
        return el.play()
      }, i)
      await pollUntil(`take ${i + 1} to play through`, 60_000, async () =>
        (await b.evaluate((i) => document.querySelectorAll('audio')[i].ended, i)) ? true : undefined,
      )
    }
  }
  await pollUntil(`${count} players with a known length`, 30_000, async () => {
    const durations = await b.evaluate(() => Array.from(document.querySelectorAll('audio')).map((a) => a.duration))
    return durations.length === count && durations.every((d) => Number.isFinite(d) && d > 0) ? true : undefined
  })
  if (b.engine === 'webkit') return
  // Seek each to its middle, and wait (from here, with a deadline) until it
  // is there and has data to play.
  await b.evaluate(() => {
    for (const el of Array.from(document.querySelectorAll('audio'))) el.currentTime = el.duration / 2
  })
  await pollUntil('every player to seek to its middle', 15_000, async () =>
    (await b.evaluate(() =>
      Array.from(document.querySelectorAll('audio')).every((el) => !el.seeking && el.currentTime > 0 && el.readyState >= 2),
    ))
      ? true
      : undefined,
  )
}

/**
 * playsIn plays the labelled recording (muted: no sound card here) from its
 * start until it has advanced half a second. A player that has already
 * played is reloaded rather than sought back to 0, since WebKitGTK does not
 * finish a seek in these takes (see expectPlayableIn).
 */
export async function playsIn(b: EngineBrowser, label: string) {
  await b.evaluate((label) => {
    const el = document.querySelector<HTMLAudioElement>(`audio[aria-label="${label}"]`)
    if (!el) throw new Error(`no player ${label}`)
    el.muted = true
    if (el.currentTime > 0) el.load()
    return el.play()
  }, label)
  await pollUntil(`${label} to play`, 15_000, async () =>
    (await b.evaluate((label) => {
      const el = document.querySelector<HTMLAudioElement>(`audio[aria-label="${label}"]`)!
      return !el.paused && el.currentTime > 0.5
    }, label))
      ? true
      : undefined,
  )
}
