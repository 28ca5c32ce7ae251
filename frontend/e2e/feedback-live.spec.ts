// Live transcription during a rehearsal, with a stand-in for the browser's
// speech recognizer (headless Chromium has no working one), and the
// evidence it feeds on the result page.
import { test, expect, classroom, signIn, finishQuickly, phaseHeading } from './support/simulator'

const said = 'Buenos días, señores miembros del tribunal. Según el artículo 76 de la Constitución, eh, procede la acción de protección. Muchas gracias.'

test('a rehearsal with live transcription shows the automatic evidence', async ({ page, server }) => {
  const { student } = await classroom(server, { questions: 1 })
  await page.addInitScript((text) => {
    // A recognizer that hears `text` once per session, a moment after start.
    class FakeRecognition {
      lang = ''
      continuous = false
      interimResults = false
      onresult: ((e: unknown) => void) | null = null
      onerror: ((e: unknown) => void) | null = null
      onend: (() => void) | null = null
      private stopped = false
      start() {
        setTimeout(() => {
          if (this.stopped) return
          const result = Object.assign([{ transcript: text }], { isFinal: true })
          this.onresult?.({ resultIndex: 0, results: [result] })
        }, 400)
      }
      stop() {
        this.stopped = true
      }
      abort() {
        this.stopped = true
      }
    }
    Object.defineProperty(window, 'webkitSpeechRecognition', { value: FakeRecognition, configurable: true })
    Object.defineProperty(window, 'SpeechRecognition', { value: FakeRecognition, configurable: true })
  }, said)
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
  await finishQuickly(page, 3, 1500)

  // The live transcripts reach the server once the uploads registered each take.
  await expect
    .poll(async () => (await (await page.request.get(`/api/attempts/${id}`)).json()).evidence?.hasTranscript, { timeout: 30_000 })
    .toBe(true)
  await page.goto(`/auth/historial/${id}`)
  const panel = page.getByRole('region', { name: 'Evidencia automática' })
  await expect(panel).toBeVisible()
  await expect(panel).toContainText('no una calificación')
  await expect(panel).toContainText('Saludó al tribunal')
  await expect(panel).toContainText('Cerró formalmente')
  await expect(panel).toContainText('art. 76 de la Constitución')
  await expect(panel).toContainText('«eh»')
  // The transcript is shown with timestamps under each recording.
  await page.getByText('Transcripción', { exact: true }).first().click()
  await expect(page.getByText('Reconocimiento de voz del navegador').first()).toBeVisible()
  await expect(page.getByRole('button', { name: /^Escuchar desde/ }).first()).toBeVisible()
})

test('without consent nothing is transcribed', async ({ page, server }) => {
  const { student } = await classroom(server, { questions: 1 })
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
