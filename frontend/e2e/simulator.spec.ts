// The simulator from the first screen to the result (docs/product.md, /test).
import {
  test,
  expect,
  classroom,
  signIn,
  chooseAndStart,
  phaseHeading,
  rateAll,
  getAttempt,
  expectPlayable,
  localRecordings,
} from './support/simulator'

test('a full Simulacro: device check, draw, every phase at its limit, self-assessment, reveal and result', async ({ page, server }) => {
  test.setTimeout(120_000)
  // A preparation long enough to see the notes saved on a busy machine,
  // and thinking time long enough for the page to show it while it ends
  // the exposition's take (2 s can pass entirely while the page is busy);
  // each still ends by itself.
  const { student } = await classroom(server, { preparationSec: 12, thinkSec: 6 })
  await signIn(page, student)

  // The first screen explains the method and links to the rubric.
  await page.goto('/test')
  await expect(page.getByRole('link', { name: 'Lea la rúbrica' })).toHaveAttribute('href', '/auth/rubrica')
  await expect(page.getByText('Una sola toma, sin pausas, la secuencia real.')).toBeVisible()
  // The area filter is for Entrenamiento only.
  await page.getByRole('radio', { name: /^Entrenamiento/ }).check()
  await expect(page.getByLabel('Área del derecho', { exact: true })).toBeVisible()
  await expect(page.getByLabel('Dificultad', { exact: true })).toBeVisible()
  await page.getByRole('radio', { name: /^Simulacro/ }).check()
  await expect(page.getByLabel('Área del derecho', { exact: true })).toHaveCount(0)
  await expect(page.getByLabel('Dificultad', { exact: true })).toHaveCount(0)
  await expect(
    page.getByText(
      'En el simulacro el caso se sortea entre todas las áreas según la combinación de dificultades de la carrera: 25 % básico, 50 % intermedio y 25 % avanzado.',
    ),
  ).toBeVisible()

  const id = await chooseAndStart(page, 'Simulacro')
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Simulacro:')

  // Preparation: the case, the notes pad with its outline, autosaved.
  await expect(phaseHeading(page)).toHaveText('Preparación')
  await expect(page.getByRole('timer', { name: 'Tiempo restante' })).toBeVisible()
  const notes = page.getByLabel('Notas de preparación')
  await expect(notes).toHaveValue(/Introducción:[\s\S]*Conclusión y vía procesal:/)
  await notes.fill('Introducción: caso de prueba\nNormas aplicables: Constitución, art. 76')
  await expect(page.getByText('Notas guardadas en el servidor.')).toBeVisible()
  // No pause or skip in a Simulacro.
  await expect(page.getByRole('button', { name: 'Pausar' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Saltar fase' })).toHaveCount(0)

  // Each phase ends by itself at its limit.
  await expect(phaseHeading(page)).toHaveText('Exposición', { timeout: 20_000 })
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
  await expect(page.getByRole('meter', { name: 'Nivel del micrófono' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Terminar exposición' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Pausar' })).toHaveCount(0)
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: tiempo para pensar', { timeout: 15_000 })
  await expect(page.getByRole('heading', { name: 'Pregunta 1 del tribunal' })).toBeVisible()
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: respuesta')
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
  await expect(phaseHeading(page)).toHaveText('Pregunta 2: tiempo para pensar')
  await expect(phaseHeading(page)).toHaveText('Pregunta 2: respuesta')
  await expect(phaseHeading(page)).toHaveText('Alegato de cierre')
  await expect(phaseHeading(page)).toHaveText('Autoevaluación')

  // Self-assessment, then the case's key points beside the notes.
  await rateAll(page, 3)
  await expect(page.getByText('Nota resultante: 7,5 / 10')).toBeVisible()
  await page.getByRole('button', { name: 'Enviar autoevaluación' }).click()
  await expect(page.getByRole('heading', { name: 'Compare su preparación con el caso' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Puntos clave del caso' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Bases legales' })).toBeVisible()
  await expect(page.getByText('Introducción: caso de prueba')).toBeVisible()
  // Each legal base links to its norm's official text, in a new tab, with a description.
  const baseLink = page.getByRole('link', { name: /texto oficial de la norma/ }).first()
  await expect(baseLink).toHaveAttribute('href', /^https:\/\//)
  await expect(baseLink).toHaveAttribute('target', '_blank')
  await expect(baseLink).toHaveAttribute('rel', 'noopener noreferrer')
  await expect(page.getByText(/^Responde a (la pregunta|las preguntas) .*del tribunal$/).first()).toBeVisible()
  await expect(page.getByText(/Las descripciones de los artículos son material de demostración/)).toBeVisible()

  // The server has every chunk of every recorded phase.
  await expect
    .poll(
      async () => {
        const a = await getAttempt(page, id)
        return a.recordings.map((r) => `${a.phases[r.phase].kind}:${r.complete && r.chunks > 0}`).sort()
      },
      { timeout: 20_000 },
    )
    .toEqual(['answer:true', 'answer:true', 'closing:true', 'presentation:true'])
  // One take per recorded phase, none empty (no take restarted between phases).
  expect((await localRecordings(page, id)).map((r) => `${r.phase}:${r.nextSeq > 0}`)).toEqual(['1:true', '3:true', '5:true', '6:true'])
  const a = await getAttempt(page, id)
  expect(a.status).toBe('finished')
  expect(a.selfAssessment?.score).toBe(7.5)

  // The result: scores, rubric, times, and every recording plays and seeks.
  await page.getByRole('link', { name: 'Ver resultado' }).click()
  await expect(page).toHaveURL(new RegExp(`/auth/historial/${id}$`))
  await expect(page.getByText('Autoevaluación:').first()).toBeVisible()
  await expect(page.getByText('Pendiente de calificación del tutor.')).toBeVisible()
  await expect(page.getByRole('table', { name: 'Rúbrica: niveles por criterio' })).toBeVisible()
  await expect(page.getByRole('table', { name: 'Tiempo usado por fase' })).toBeVisible()
  await expect(page.getByText(/^Grabación: Exposición/)).toBeVisible()
  await expect(page.getByText(/^Grabación: Pregunta 1: respuesta/)).toBeVisible()
  await expectPlayable(page, 4)
})

test('the countdown warns at 2:00 and 0:30 left, on screen and to screen readers', async ({ page, server }) => {
  // Phases 10 s over the thresholds: the page is running before each one is
  // crossed (it announces a warning when it sees the crossing), even when a
  // busy machine takes seconds to load it.
  const { student } = await classroom(server, { preparationSec: 130, presentationSec: 40 })
  await signIn(page, student)
  await chooseAndStart(page, 'Simulacro')
  await expect(phaseHeading(page)).toHaveText('Preparación')
  const live = page.locator('p[aria-live="assertive"]')
  // The clock and its warning, read in one go: the warning shows exactly
  // when the clock reaches the threshold, whenever this reading happens.
  const glance = (note: string) =>
    page.evaluate((note) => {
      const [m, s] = (document.querySelector('[role="timer"]')?.textContent ?? '').split(':').map(Number)
      return { secondsShown: m * 60 + s, warned: document.body.textContent?.includes(note) ?? false }
    }, note)
  const soon = await glance('Quedan menos de 2 minutos')
  expect(soon.warned, `clock at ${soon.secondsShown} s`).toBe(soon.secondsShown <= 120)
  // At most 10 s away (the margin above), however slow the page was.
  await expect(page.getByText('Quedan menos de 2 minutos')).toBeVisible({ timeout: 20_000 })
  await expect(live).toHaveText('Quedan 2 minutos.')
  await page.getByRole('button', { name: 'Terminar preparación' }).click()
  await expect(phaseHeading(page)).toHaveText('Exposición')
  await expect(live).toHaveText(/^Comienza: Exposición\./)
  const urgent = await glance('Quedan menos de 30 segundos')
  expect(urgent.warned, `clock at ${urgent.secondsShown} s`).toBe(urgent.secondsShown <= 30)
  await expect(page.getByText('Quedan menos de 30 segundos')).toBeVisible({ timeout: 20_000 })
  await expect(live).toHaveText('Quedan 30 segundos.')
})
