// Helpers for the simulator's end-to-end tests: a server that allows phases
// of a few seconds, a tutor with an active group, a short blueprint, and
// ways to look at what the browser and the server hold of a recording.
import { expect, type APIRequestContext, type Page } from '@playwright/test'
import { apiAs, test as shortTimings } from './admin'
import type { ServerHandle, TestUser } from './server'

// The server allows phases of a few seconds (see admin.ts); pages here use
// its URL as their base.
export const test = shortTimings.extend({
  baseURL: async ({ server }, use) => use(server.url),
})
export { expect }

export type ShortBlueprint = {
  preparationSec: number
  presentationSec: number
  questions: number
  thinkSec: number
  answerSec: number
  closingSec: number
  defaultMode: 'entrenamiento' | 'simulacro'
}

export const shortBlueprint: ShortBlueprint = {
  preparationSec: 4,
  presentationSec: 8,
  questions: 2,
  thinkSec: 2,
  answerSec: 4,
  closingSec: 3,
  defaultMode: 'entrenamiento',
}

export type Classroom = { tutor: TestUser; student: TestUser; tutorApi: APIRequestContext }

// classroom makes a tutor and a student, sets the degree's blueprint and
// loads a group with the student, so the student may use /test.
export async function classroom(server: ServerHandle, blueprint: Partial<ShortBlueprint> = {}): Promise<Classroom> {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante', { name: 'Sofía Simulacro Pérez' })
  const tutorApi = await apiAs(server, tutor)
  const bp = await tutorApi.put('/api/admin/config/derecho/blueprint', { data: { degreeId: 'derecho', ...shortBlueprint, ...blueprint } })
  expect(bp.status(), await bp.text()).toBe(200)
  const roster = Buffer.from(`email,degree,name,department,faculty,modality\r\n${student.email},Derecho\r\n`, 'utf8')
  const group = await tutorApi.post('/api/admin/group', {
    multipart: { file: { name: 'grupo.csv', mimeType: 'text/csv', buffer: roster } },
  })
  expect(group.status(), await group.text()).toBe(201)
  return { tutor, student, tutorApi }
}

export async function signIn(page: Page, user: TestUser) {
  const res = await page.request.post('/api/auth/login', { data: { email: user.email, password: user.password } })
  expect(res.status(), await res.text()).toBe(200)
}

export type ServerRecording = {
  id: string
  phase: number
  chunks: number
  bytes: number
  durationMs: number
  complete: boolean
  deleted: boolean
  createdAt: string
}
export type ServerAttempt = {
  id: string
  status: string
  current: number
  mode: string
  phases: { kind: string; index: number; recorded: boolean; skipped: boolean; usedSec: number }[]
  recordings: ServerRecording[]
  selfAssessment: { score: number } | null
}

export async function getAttempt(page: Page, id: string): Promise<ServerAttempt> {
  const res = await page.request.get(`/api/attempts/${id}`)
  expect(res.status()).toBe(200)
  return (await res.json()) as ServerAttempt
}

// attemptIdOf reads the attempt id from the page's URL.
export function attemptIdOf(page: Page): string {
  const m = /\/test\/intento\/([^/?#]+)/.exec(page.url())
  if (!m) throw new Error(`not on an attempt page: ${page.url()}`)
  return decodeURIComponent(m[1])
}

// chooseAndStart goes through the first screen and the microphone check;
// options.directed asks for a "Sorteo dirigido" (training).
export async function chooseAndStart(
  page: Page,
  mode: 'Entrenamiento' | 'Simulacro',
  area?: string,
  difficulty?: 'Básico' | 'Intermedio' | 'Avanzado',
  options: { directed?: boolean } = {},
) {
  await page.goto('/test')
  await expect(page.getByRole('heading', { name: 'Simulador', level: 1 })).toBeVisible()
  await page.getByRole('radio', { name: new RegExp(`^${mode}`) }).check()
  if (options.directed) await page.getByRole('checkbox', { name: 'Sorteo dirigido' }).check()
  if (area) await page.getByLabel('Área del derecho', { exact: true }).selectOption(area)
  if (difficulty) await page.getByLabel('Dificultad', { exact: true }).selectOption(difficulty)
  await page.getByRole('button', { name: 'Continuar' }).click()
  await page.getByRole('button', { name: 'Probar micrófono' }).click()
  await expect(page.getByText('Micrófono listo.')).toBeVisible()
  await expect(page.getByRole('meter', { name: 'Nivel del micrófono' })).toBeVisible()
  await page.getByRole('button', { name: 'Sortear caso y comenzar' }).click()
  await expect(page).toHaveURL(/\/test\/intento\/[^/]+$/)
  return attemptIdOf(page)
}

// phaseHeading is the title of the phase under way.
export const phaseHeading = (page: Page) => page.locator('#fase-actual')

// rateAll answers every rubric criterion with the same level.
export async function rateAll(page: Page, level: 1 | 2 | 3 | 4) {
  const radios = page.locator(`input[type="radio"][value="${level}"]`)
  const n = await radios.count()
  expect(n).toBeGreaterThan(0)
  for (let i = 0; i < n; i++) await radios.nth(i).check()
}

export type LocalRecording = { id: string; phase: number; nextSeq: number; stopped: boolean; completed: boolean; pendingChunks: number }

// localRecordings reads the recording engine's IndexedDB in the page.
export async function localRecordings(page: Page, attemptId: string): Promise<LocalRecording[]> {
  return page.evaluate(async (attemptId) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('simulador-grabaciones')
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
    try {
      const all = <T>(store: string) =>
        new Promise<T[]>((resolve, reject) => {
          const tx = db.transaction(store, 'readonly')
          const r = tx.objectStore(store).getAll()
          r.onsuccess = () => resolve(r.result as T[])
          r.onerror = () => reject(r.error)
        })
      if (!db.objectStoreNames.contains('recordings')) return []
      const recs = (
        await all<{
          id: string
          attemptId: string
          phase: number
          nextSeq: number
          stopped: boolean
          completed: boolean
          createdAt: number
        }>('recordings')
      )
        .filter((r) => r.attemptId === attemptId)
        .sort((a, b) => a.createdAt - b.createdAt)
      const chunks = await all<{ recordingId: string }>('chunks')
      return recs.map((r) => ({
        id: r.id,
        phase: r.phase,
        nextSeq: r.nextSeq,
        stopped: r.stopped,
        completed: r.completed,
        pendingChunks: chunks.filter((c) => c.recordingId === r.id).length,
      }))
    } finally {
      db.close()
    }
  }, attemptId)
}

// attemptLockHeld tells whether some tab of the page's browser holds the
// Web Lock that lets one tab run the attempt (lib/attempt-lock.ts).
export async function attemptLockHeld(page: Page, attemptId: string): Promise<boolean> {
  return page.evaluate(async (name) => {
    const { held = [] } = await navigator.locks.query()
    return held.some((l) => l.name === name)
  }, `simulador-intento:${attemptId}`)
}

export { expectAccessible } from './a11y'

// expectPlayable checks every audio element on the page: a finite duration
// (the WebM duration was patched) and seeking works.
export async function expectPlayable(page: Page, count: number) {
  const audios = page.locator('audio')
  await expect(audios).toHaveCount(count, { timeout: 20_000 })
  for (let i = 0; i < count; i++) {
    const audio = audios.nth(i)
    await expect
      .poll(() => audio.evaluate((el: HTMLAudioElement) => (Number.isFinite(el.duration) ? el.duration : -1)), { timeout: 15_000 })
      .toBeGreaterThan(0)
    const seeked = await audio.evaluate(
      (el: HTMLAudioElement) =>
        new Promise<number>((resolve) => {
          const target = el.duration / 2
          el.addEventListener('seeked', () => resolve(el.currentTime), { once: true })
          el.currentTime = target
          setTimeout(() => resolve(-1), 5000)
        }),
    )
    expect(seeked).toBeGreaterThan(0)
  }
}

// phaseIndex is the index of the phase under way in the attempt's phases,
// read from its "Fase N de M" line: the same index a take's recording row
// keeps (RecordingRow.phase).
export async function phaseIndex(page: Page): Promise<number> {
  const line = (await page.getByText(/^Fase \d+ de \d+$/).textContent()) ?? ''
  const n = Number(/^Fase (\d+) de/.exec(line)?.[1])
  if (!Number.isInteger(n)) throw new Error(`no phase line: ${JSON.stringify(line)}`)
  return n - 1
}

// finishQuickly runs an attempt already on its page through every phase with
// the "Terminar…" buttons, ending each recorded phase once a take of that
// phase has stored `chunks` chunks in the browser (a chunk is about 2 s of
// audio), and self-assesses at level; it returns on the comparison screen.
// Takes are matched to the phase by its index, not by which takes existed
// before: the next phase's take can be created before the test looks.
// beforeEnd, when given, is awaited before each recorded phase is ended: a
// spec waits there for what it needs the take to have heard.
export async function finishQuickly(page: Page, level: 1 | 2 | 3 | 4 = 3, chunks = 1, beforeEnd?: () => Promise<void>) {
  const id = attemptIdOf(page)
  for (;;) {
    const title = (await phaseHeading(page).textContent()) ?? ''
    if (title === 'Autoevaluación') break
    const recorded = /Exposición|respuesta|cierre/.test(title)
    if (recorded) {
      const phase = await phaseIndex(page)
      // The recorder says it is recording, unless the phase already ended
      // by itself (a short phase on a busy machine: the server's clock
      // closed it before the page was looked at).
      await expect
        .poll(
          async () => (await page.getByText('Grabando', { exact: true }).isVisible()) || (await phaseHeading(page).textContent()) !== title,
          { timeout: 20_000 },
        )
        .toBe(true)
      // This phase's take has recorded enough, or the phase ended by itself.
      await expect
        .poll(
          async () =>
            (await localRecordings(page, id)).some((r) => r.phase === phase && r.nextSeq >= chunks) ||
            (await phaseHeading(page).textContent()) !== title,
          { timeout: 20_000 },
        )
        .toBe(true)
      if (beforeEnd && (await phaseHeading(page).textContent()) === title) await beforeEnd()
    }
    // A short phase may end by itself while we wait (the server's clock
    // closes it): then there is no button left to press.
    const finish = page.getByRole('button', {
      name: /^(Terminar preparación|Terminar exposición|Responder ahora|Terminar respuesta|Terminar cierre)$/,
    })
    if ((await phaseHeading(page).textContent()) === title) await finish.click({ timeout: 5_000 }).catch(() => undefined)
    await expect(phaseHeading(page)).not.toHaveText(title, { timeout: 20_000 })
  }
  await rateAll(page, level)
  await page.getByRole('button', { name: 'Enviar autoevaluación' }).click()
  await expect(page.getByRole('heading', { name: 'Compare su preparación con el caso' })).toBeVisible()
}

export type Spoken = { text: string; lang: string; voice: string | null }

declare global {
  interface Window {
    __spoken?: Spoken[]
  }
}

// recordSpeech replaces the browser's speech synthesis with one that speaks
// at once and remembers every utterance (its text, language and voice), so a
// test can tell what the page read aloud. Its voices: English first, then
// Mexican and Ecuadorian Spanish.
export async function recordSpeech(page: Page) {
  await page.addInitScript(() => {
    const spoken: Spoken[] = []
    window.__spoken = spoken
    const voices = [
      { name: 'English (United States)', lang: 'en-US', localService: true, default: true, voiceURI: 'en-US' },
      { name: 'Español (México)', lang: 'es-MX', localService: true, default: false, voiceURI: 'es-MX' },
      { name: 'Español (Ecuador)', lang: 'es-EC', localService: false, default: false, voiceURI: 'es-EC' },
    ]
    class Utterance extends EventTarget {
      text: string
      lang = ''
      voice: { name: string } | null = null
      rate = 1
      pitch = 1
      volume = 1
      onstart: ((e: Event) => void) | null = null
      onend: ((e: Event) => void) | null = null
      onerror: ((e: Event) => void) | null = null
      constructor(text = '') {
        super()
        this.text = text
      }
    }
    const synth = {
      speaking: false,
      pending: false,
      paused: false,
      onvoiceschanged: null,
      getVoices: () => voices,
      speak(u: Utterance) {
        spoken.push({ text: u.text, lang: u.lang, voice: u.voice?.name ?? null })
        setTimeout(() => u.onend?.(new Event('end')), 10)
      },
      cancel() {},
      pause() {},
      resume() {},
      addEventListener() {},
      removeEventListener() {},
    }
    Object.defineProperty(window, 'speechSynthesis', { configurable: true, get: () => synth })
    Object.defineProperty(window, 'SpeechSynthesisUtterance', { configurable: true, writable: true, value: Utterance })
  })
}

// spoken is what the page has read aloud so far (see recordSpeech).
export const spoken = (page: Page) => page.evaluate(() => window.__spoken ?? [])

// withoutSpeech makes the page's browser one without speech synthesis.
export async function withoutSpeech(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: undefined })
    Object.defineProperty(window, 'SpeechSynthesisUtterance', { configurable: true, value: undefined })
  })
}

// failMicrophone makes getUserMedia reject with a DOMException of the given
// name (NotAllowedError: permission denied; NotFoundError: no microphone);
// with null the fake microphone answers. The failure is kept in the tab's
// sessionStorage, so it survives a reload; setMicrophoneFailure changes it.
const micFailureKey = 'e2e-microphone-failure'

export async function failMicrophone(page: Page, initial: string | null) {
  await page.addInitScript(
    ([key, initial]) => {
      let store: Storage
      try {
        store = window.sessionStorage
      } catch {
        return // about:blank has no storage and no page to test
      }
      if (store.getItem(key) === null) store.setItem(key, initial ?? '')
      const md = navigator.mediaDevices
      if (!md) return
      const real = md.getUserMedia.bind(md)
      md.getUserMedia = (constraints?: MediaStreamConstraints) => {
        const failure = store.getItem(key)
        return failure ? Promise.reject(new DOMException('simulated failure', failure)) : real(constraints)
      }
    },
    [micFailureKey, initial] as const,
  )
}

export async function setMicrophoneFailure(page: Page, name: string | null) {
  await page.evaluate(([key, name]) => window.sessionStorage.setItem(key, name ?? ''), [micFailureKey, name] as const)
}
