// A whole Entrenamiento rehearsal recorded in the project's engine, checked
// on the server; then the tutor grades it in the other engine, and the
// takes play in all three (Firefox and Chromium play WebKit's MP4, WebKit
// and Chromium play Firefox's WebM).
import { apiAs } from '../support/admin'
import { classroom, type Classroom } from '../support/simulator'
import { test, expect } from './support/fixtures'
import {
  confirmDialog,
  dialogShown,
  expectPlayableIn,
  expectTakesOnServer,
  getAttempt,
  playsIn,
  rateAll,
  recordedType,
  rehearse,
  selfAssess,
  signInWithPassword,
  startAttempt,
} from './support/journeys'

// Phases long enough to end each with its button once two chunks are on
// the server, on a busy machine too.
const blueprint = { preparationSec: 60, presentationSec: 90, questions: 1, thinkSec: 30, answerSec: 90, closingSec: 90 }

test.describe.serial('a rehearsal recorded in this engine', () => {
  // Two browsers, a server and a recorder share two cores.
  test.describe.configure({ timeout: 240_000 })
  let room: Classroom
  let attemptId: string

  test('a whole Entrenamiento: every take complete on the server, every chunk there, playable', async ({ open, server, engine }) => {
    room = await classroom(server, blueprint)
    const api = await apiAs(server, room.student)
    const b = await open()
    await signInWithPassword(b, room.student)
    attemptId = await startAttempt(b, 'Entrenamiento')
    const seen: string[] = []
    await rehearse(b, api, attemptId, async (title) => void seen.push(title))
    expect(seen).toEqual(['Preparación', 'Exposición', 'Pregunta 1: tiempo para pensar', 'Pregunta 1: respuesta', 'Alegato de cierre'])
    // The page never claimed a save that did not happen: no storage problem shown.
    expect(await b.count({ text: /No se pudo guardar/ })).toBe(0)
    await selfAssess(b)
    await expectTakesOnServer(api, server, attemptId, ['answer', 'closing', 'presentation'], recordedType[engine])
    expect((await getAttempt(api, attemptId)).status).toBe('finished')

    // The student's result plays every take in the engine that recorded it.
    await b.goto(`/auth/historial/${attemptId}`)
    await b.waitFor({ text: /^Grabación: Exposición/ })
    await expectPlayableIn(b, 3)
    await api.dispose()
  })

  test('the tutor grades it in the other engine and plays it there and in Chromium', async ({ open, otherEngine, server, browser }) => {
    test.skip(!attemptId, 'the rehearsal did not finish')
    const b = await open(otherEngine)
    await signInWithPassword(b, room.tutor)
    await b.goto(`/admin/calificar/${attemptId}`)
    await b.waitFor({ role: 'heading', name: 'Grabaciones' })
    await expectPlayableIn(b, 3)
    await playsIn(b, 'Grabación: Exposición')
    await rateAll(b, 3)
    await b.fill({ label: 'Comentarios para el estudiante' }, 'Exposición clara; cite el artículo exacto en el cierre.')
    await b.click({ role: 'button', name: 'Guardar calificación' })
    await dialogShown(b, 'Calificación guardada')
    await confirmDialog(b)
    const graded = (await (await room.tutorApi.get(`/api/attempts/${attemptId}`)).json()) as { tutorGrade: { comments: string } | null }
    expect(graded.tutorGrade?.comments).toBe('Exposición clara; cite el artículo exacto en el cierre.')

    // Chromium plays the same takes.
    const chromium = await browser.newContext({ baseURL: server.url })
    const tp = await chromium.newPage()
    const login = await tp.request.post('/api/auth/login', { data: { email: room.tutor.email, password: room.tutor.password } })
    expect(login.status()).toBe(200)
    await tp.goto(`/admin/calificar/${attemptId}`)
    const audios = tp.locator('audio')
    await expect(audios).toHaveCount(3, { timeout: 20_000 })
    for (let i = 0; i < 3; i++)
      await expect
        .poll(() => audios.nth(i).evaluate((el: HTMLAudioElement) => (Number.isFinite(el.duration) ? el.duration : -1)), {
          timeout: 15_000,
        })
        .toBeGreaterThan(0)
    // Chromium seeks in them too (a Firefox take has no frame marked as a
    // keyframe until the player marks them: lib/seekable-webm.ts).
    for (let i = 0; i < 3; i++) {
      await audios.nth(i).evaluate((el: HTMLAudioElement) => (el.currentTime = el.duration / 2))
      await expect
        .poll(() => audios.nth(i).evaluate((el: HTMLAudioElement) => !el.seeking && el.currentTime > 0 && el.readyState >= 2 && !el.error))
        .toBe(true)
    }
    const presentation = tp.getByLabel('Grabación: Exposición')
    await presentation.evaluate((el: HTMLAudioElement) => {
      el.muted = true
      return el.play()
    })
    await expect
      .poll(() => presentation.evaluate((el: HTMLAudioElement) => (el.paused ? -1 : el.currentTime)), { timeout: 15_000 })
      .toBeGreaterThan(0.5)
    await chromium.close()
  })
})
