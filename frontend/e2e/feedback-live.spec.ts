// Live transcription during a rehearsal, with a stand-in for the browser's
// speech recognizer (headless Chromium has no working one), and the
// evidence it feeds on the result page.
import { test, expect, classroom, signIn, finishQuickly, phaseHeading } from './support/simulator'

const heard = {
  greeting: 'Buenos días, señores miembros del tribunal.',
  argument: 'Según el artículo 76 de la Constitución, eh, procede la acción de protección.',
  // Delivered only after stop(), as browsers deliver the last utterance.
  closing: 'Muchas gracias por su atención.',
}

test('a rehearsal with live transcription shows the automatic evidence', async ({ page, server }) => {
  // Recorded phases long enough to be ended with their buttons.
  const { student } = await classroom(server, { questions: 1, presentationSec: 30, answerSec: 30, closingSec: 30 })
  await page.addInitScript((heard) => {
    type Result = { transcript: string }[] & { isFinal: boolean }
    // A continuous recognizer that hears two utterances while recording and
    // hands over the last one a moment after stop(), then ends.
    class FakeRecognition {
      lang = ''
      continuous = false
      interimResults = false
      onresult: ((e: unknown) => void) | null = null
      onerror: ((e: unknown) => void) | null = null
      onend: (() => void) | null = null
      private stopped = false
      private results: Result[] = []
      private hear(text: string, isFinal: boolean) {
        const r: Result = Object.assign([{ transcript: text }], { isFinal })
        const last = this.results.length - 1
        if (last >= 0 && !this.results[last].isFinal) this.results[last] = r
        else this.results.push(r)
        this.onresult?.({ resultIndex: this.results.length - 1, results: this.results })
      }
      start() {
        setTimeout(() => !this.stopped && this.hear('Buenos días', false), 200)
        setTimeout(() => !this.stopped && this.hear(heard.greeting, true), 500)
        setTimeout(() => {
          if (this.stopped) return
          this.hear(heard.argument, true)
          const w = window as unknown as { __takesHeard?: number }
          w.__takesHeard = (w.__takesHeard ?? 0) + 1
        }, 1500)
      }
      stop() {
        if (this.stopped) return
        this.stopped = true
        setTimeout(() => {
          this.hear(heard.closing, true)
          this.onend?.()
        }, 300)
      }
      abort() {
        this.stopped = true
      }
    }
    Object.defineProperty(window, 'webkitSpeechRecognition', { value: FakeRecognition, configurable: true })
    Object.defineProperty(window, 'SpeechRecognition', { value: FakeRecognition, configurable: true })
  }, heard)
  await signIn(page, student)
  await page.goto('/test')
  await page.getByRole('radio', { name: /^Simulacro/ }).check()
  const consent = page.getByRole('checkbox', { name: 'Transcribir en vivo lo que diga' })
  await expect(page.getByText('puede enviar el audio a su proveedor', { exact: false })).toBeVisible()
  await consent.check()
  await page.getByRole('button', { name: 'Continuar' }).click()
  await page.getByRole('button', { name: 'Probar micrófono' }).click()
  await page.getByRole('button', { name: 'Sortear caso y comenzar' }).click()
  await expect(page).toHaveURL(/\/test\/intento\/[^/]+$/)
  const id = page.url().split('/').pop()!
  await expect(phaseHeading(page)).toBeVisible()
  // Each take is ended only once its recognizer has heard both utterances.
  let takes = 0
  await finishQuickly(page, 3, 1, async () => {
    takes++
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __takesHeard?: number }).__takesHeard ?? 0))
      .toBeGreaterThanOrEqual(takes)
  })

  // The live transcripts reach the server once the uploads registered each
  // take, the words heard after each stop included.
  type Seg = { startMs: number; endMs: number; text: string }
  type Rec = { id: string; phase: number; transcript?: { language: string; segments: Seg[] } | null }
  const recordings = async () => ((await (await page.request.get(`/api/attempts/${id}`)).json()).recordings ?? []) as Rec[]
  await expect
    .poll(async () => (await recordings()).filter((r) => r.transcript?.segments.some((s) => s.text === heard.closing)).length, {
      timeout: 30_000,
    })
    .toBe(3)
  const attempt = await (await page.request.get(`/api/attempts/${id}`)).json()
  const presentation = (attempt.recordings as Rec[]).find((r) => attempt.phases[r.phase].kind === 'presentation')!
  expect(presentation.transcript!.language).toBe('es-EC')
  expect(presentation.transcript!.segments.map((s) => s.text)).toEqual([heard.greeting, heard.argument, heard.closing])

  await page.goto(`/auth/historial/${id}`)
  const panel = page.getByRole('region', { name: 'Evidencia automática' })
  await expect(panel).toBeVisible()
  await expect(panel).toContainText('no una calificación')
  await expect(panel).toContainText('Saludó al tribunal')
  await expect(panel).toContainText('Cerró formalmente') // said only after the closing phase's stop()
  await expect(panel).toContainText('art. 76 de la Constitución')
  await expect(panel).toContainText(/«eh»: [\d,]+ por minuto/)

  // The transcript is shown with timestamps under each recording, and a
  // timestamp moves the recording there.
  const audio = page.getByLabel('Grabación: Exposición', { exact: true })
  const item = page.getByRole('listitem').filter({ has: audio })
  await expect(audio).toBeVisible()
  await item.getByText('Transcripción', { exact: true }).click()
  await expect(item.getByText('Reconocimiento de voz del navegador')).toBeVisible()
  await expect(item.getByText(heard.closing)).toBeVisible()
  // Playing would move the position on; the seek itself is what is checked.
  await page.evaluate(() => {
    HTMLMediaElement.prototype.play = function () {
      ;(window as unknown as { __played: boolean }).__played = true
      return Promise.resolve()
    }
  })
  const target = presentation.transcript!.segments[1]
  await item
    .getByRole('listitem')
    .filter({ hasText: heard.argument })
    .getByRole('button', { name: /^Escuchar desde/ })
    .click()
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeCloseTo(target.startMs / 1000, 1)
  expect(await page.evaluate(() => (window as unknown as { __played?: boolean }).__played)).toBe(true)
})

test('without consent nothing is transcribed', async ({ page, server }) => {
  // Recorded phases long enough to be ended with their buttons.
  const { student } = await classroom(server, { questions: 1, presentationSec: 30, answerSec: 30, closingSec: 30 })
  await page.addInitScript(() => {
    Object.defineProperty(window, 'webkitSpeechRecognition', {
      value: class {
        start() {
          ;(window as unknown as { __recognizerStarted: boolean }).__recognizerStarted = true
        }
        stop() {}
        abort() {}
      },
    })
  })
  await signIn(page, student)
  await page.goto('/test')
  await page.getByRole('radio', { name: /^Simulacro/ }).check()
  await expect(page.getByRole('checkbox', { name: 'Transcribir en vivo lo que diga' })).not.toBeChecked()
  await page.getByRole('button', { name: 'Continuar' }).click()
  await page.getByRole('button', { name: 'Probar micrófono' }).click()
  await page.getByRole('button', { name: 'Sortear caso y comenzar' }).click()
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible({ timeout: 20_000 })
  expect(await page.evaluate(() => (window as unknown as { __recognizerStarted?: boolean }).__recognizerStarted)).toBeFalsy()
})
