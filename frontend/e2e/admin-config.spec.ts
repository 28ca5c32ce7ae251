// Per-degree configuration: blueprint and rubric (docs/product.md, /admin
// Configuración).
import type { Page } from '@playwright/test'
import { signIn, expectDialog, closeDialog, dialog } from './support/fixtures'
import { test, expect, apiAs, ok, loadGroup, setShortBlueprint, finishedAttempt } from './support/admin'

type Config = {
  blueprint: Record<string, number | string> & { difficultyMix: Record<string, number> }
  rubric: {
    version: number
    passScore: number
    criteria: { id: string; weight: number; name: string; group: string; description: string; descriptors: string[] }[]
  }
  bounds: Record<string, { min: number; max: number }>
}

const getConfig = async (page: Page) => ok<Config>(await page.request.get('/api/admin/config/derecho'))
const timing = (page: Page, name: string) => page.getByRole('group', { name, exact: true })

test('an out-of-bounds blueprint is refused, a valid one is saved', async ({ page, server }) => {
  await signIn(page, await server.createUser('tutor'))
  await page.goto('/admin/configuracion')
  await expect(page.getByLabel('Carrera')).toHaveValue('derecho')
  const before = await getConfig(page)
  const prep = timing(page, 'Preparación')
  await expect(prep).toContainText('Permitido: entre 2 s y 60 min.')

  // The inputs hold each part within its range…
  await prep.getByLabel('Minutos').fill('61')
  await page.getByRole('button', { name: 'Guardar tiempos' }).click()
  // The browser does not submit a form that fails its own checks: no
  // dialog, nothing saved (asserted below, before the next save).
  expect(await prep.getByLabel('Minutos').evaluate((el: HTMLInputElement) => el.validity.rangeOverflow)).toBe(true)
  expect(await prep.getByLabel('Minutos').evaluate((el: HTMLInputElement) => el.form?.checkValidity())).toBe(false)
  await expect(dialog(page)).toBeHidden()

  // …and a total beyond the bound is marked, then refused by the server.
  await prep.getByLabel('Minutos').fill('60')
  await prep.getByLabel('Segundos').fill('30')
  await expect(prep).toContainText('Debe estar entre 2 s y 60 min.')
  await expect(prep.getByLabel('Minutos')).toHaveAttribute('aria-invalid', 'true')
  await page.getByRole('button', { name: 'Guardar tiempos' }).click()
  await expectDialog(page, 'Error', 'La preparación debe estar entre 2 y 3600 segundos.')
  await closeDialog(page)
  expect((await getConfig(page)).blueprint).toEqual(before.blueprint)

  // A valid change.
  await prep.getByLabel('Minutos').fill('15')
  await prep.getByLabel('Segundos').fill('0')
  await timing(page, 'Exposición').getByLabel('Minutos').fill('8')
  await timing(page, 'Exposición').getByLabel('Segundos').fill('30')
  await page.getByLabel('Tiempo para pensar cada pregunta (segundos)').fill('30')
  await timing(page, 'Respuesta a cada pregunta').getByLabel('Minutos').fill('1')
  await timing(page, 'Respuesta a cada pregunta').getByLabel('Segundos').fill('30')
  await timing(page, 'Alegato de cierre').getByLabel('Minutos').fill('1')
  await timing(page, 'Alegato de cierre').getByLabel('Segundos').fill('0')
  await page.getByLabel('Preguntas del tribunal').fill('2')
  await page.getByLabel('Simulacro (una sola toma, sin pausas)').check()
  await expect(page.getByText('Duración total de un intento: 28 min 30 s')).toBeVisible()
  await page.getByRole('button', { name: 'Guardar tiempos' }).click()
  await expectDialog(page, 'Tiempos guardados', 'Los intentos que empiecen desde ahora usarán estos tiempos.')
  await closeDialog(page)
  expect((await getConfig(page)).blueprint).toEqual({
    degreeId: 'derecho',
    preparationSec: 900,
    presentationSec: 510,
    questions: 2,
    thinkSec: 30,
    answerSec: 90,
    closingSec: 60,
    defaultMode: 'simulacro',
    // Saving the timings keeps the Simulacro's difficulty mix.
    difficultyMix: before.blueprint.difficultyMix,
  })
  await page.reload()
  await expect(timing(page, 'Exposición').getByLabel('Minutos')).toHaveValue('8')
  await expect(timing(page, 'Exposición').getByLabel('Segundos')).toHaveValue('30')
  await expect(page.getByLabel('Simulacro (una sola toma, sin pausas)')).toBeChecked()
})

test('the Simulacro draws by the difficulty mix set in Configuración', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante')
  const tutorApi = await apiAs(server, tutor)
  await setShortBlueprint(tutorApi)
  await loadGroup(tutorApi, [student.email])
  const studentApi = await apiAs(server, student)
  await signIn(page, tutor)
  await page.goto('/admin/configuracion')
  const before = await getConfig(page)
  expect(before.blueprint.difficultyMix).toEqual({ basico: 25, intermedio: 50, avanzado: 25 })
  const mix = page.getByRole('group', { name: 'Porcentaje de casos por dificultad' })
  try {
    await expect(mix.getByLabel('Intermedio (%)')).toHaveValue('50')
    await expect(page.getByText('Total: 100 %')).toBeVisible()

    // A mix that does not sum to 100 is marked and refused by the server.
    await mix.getByLabel('Básico (%)').fill('40')
    await expect(mix).toContainText('Los porcentajes deben sumar 100 (suman 115).')
    await expect(mix.getByLabel('Básico (%)')).toHaveAttribute('aria-invalid', 'true')
    await page.getByRole('button', { name: 'Guardar combinación' }).click()
    await expectDialog(page, 'Error', 'Los porcentajes de dificultad deben sumar 100 (suman 115).')
    await closeDialog(page)
    expect((await getConfig(page)).blueprint.difficultyMix).toEqual(before.blueprint.difficultyMix)

    // Only advanced cases: every Simulacro draws one.
    await mix.getByLabel('Básico (%)').fill('0')
    await mix.getByLabel('Intermedio (%)').fill('0')
    await mix.getByLabel('Avanzado (%)').fill('100')
    await page.getByRole('button', { name: 'Guardar combinación' }).click()
    await expectDialog(page, 'Combinación guardada', 'Los simulacros que empiecen desde ahora sortearán los casos con esta combinación.')
    await closeDialog(page)
    const saved = await getConfig(page)
    expect(saved.blueprint.difficultyMix).toEqual({ basico: 0, intermedio: 0, avanzado: 100 })
    expect(saved.blueprint.preparationSec).toBe(before.blueprint.preparationSec)
    await page.reload()
    await expect(page.getByRole('group', { name: 'Porcentaje de casos por dificultad' }).getByLabel('Avanzado (%)')).toHaveValue('100')
    const a = await ok<{ id: string; case: { difficulty: string } }>(
      await studentApi.post('/api/attempts', { data: { mode: 'simulacro' } }),
      201,
    )
    expect(a.case.difficulty).toBe('avanzado')
    await ok(await studentApi.post(`/api/attempts/${a.id}/abandon`))
  } finally {
    await ok(await tutorApi.put('/api/admin/config/derecho/blueprint', { data: before.blueprint }))
    await Promise.all([tutorApi.dispose(), studentApi.dispose()])
  }
})

test('a rubric whose weights do not sum to 100 is refused; a valid one makes a new version', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante')
  const tutorApi = await apiAs(server, tutor)
  await setShortBlueprint(tutorApi)
  await loadGroup(tutorApi, [student.email])
  const studentApi = await apiAs(server, student)
  const earlier = await finishedAttempt(studentApi)

  await signIn(page, tutor)
  await page.goto('/admin/configuracion')
  const before = await getConfig(page)
  const original = before.rubric
  try {
    const v = original.version
    await expect(page.getByText(`Versión vigente: ${v}.`)).toBeVisible()
    await expect(
      page.getByText('Los intentos ya realizados conservan la rúbrica con la que se hicieron y se calificaron.').first(),
    ).toBeVisible()
    await expect(page.getByText('Los pesos suman 100.')).toBeVisible()

    const criterion = (n: number) => page.getByRole('group', { name: new RegExp(`^Criterio ${n}(:|$)`) })
    const c1 = original.criteria[0]
    await criterion(1)
      .getByLabel('Peso')
      .fill(String(c1.weight + 5))
    await expect(page.getByText('Los pesos suman 105: sobran 5 para que sumen 100.')).toBeVisible()
    await expect(page.getByText('Total de pesos: 105 / 100')).toBeVisible()
    await page.getByRole('button', { name: 'Guardar rúbrica' }).click()
    await expectDialog(page, 'Error', 'Los pesos deben sumar 100 (suman 105).')
    await closeDialog(page)
    expect((await getConfig(page)).rubric.version).toBe(v)

    // Take 5 from the third criterion, add a formalities criterion and
    // drop the first one of that group instead.
    const c3 = original.criteria[2]
    await criterion(3)
      .getByLabel('Peso')
      .fill(String(c3.weight - 5))
    await expect(page.getByText('Los pesos suman 100.')).toBeVisible()
    const n = original.criteria.length
    const firstF = original.criteria.findIndex((c) => c.group === 'formalidades')
    await page.getByRole('button', { name: 'Agregar criterio de formalidades' }).click()
    const added = criterion(n + 1)
    await expect(added.getByLabel('Nombre')).toBeFocused()
    await expect(added.getByLabel('Código')).toHaveValue(`F${original.criteria.filter((c) => c.group === 'formalidades').length + 1}`)
    await page.keyboard.type('Uso del tiempo de réplica')
    await added.getByLabel('Peso').fill(String(original.criteria[firstF].weight))
    await added.getByLabel('Qué busca el criterio').fill('Aprovecha la réplica ante el tribunal.')
    for (const level of [1, 2, 3, 4]) await added.getByLabel(new RegExp(`^Nivel ${level} · `)).fill(`Descripción del nivel ${level}.`)
    await page.getByRole('button', { name: `Quitar el criterio ${firstF + 1}` }).click()
    await expect(page.getByText('Los pesos suman 100.')).toBeVisible()
    await page.getByLabel('Nota mínima para aprobar (sobre 10)').fill('6.5')
    await page.getByRole('button', { name: 'Guardar rúbrica' }).click()
    await expectDialog(
      page,
      'Rúbrica guardada',
      `Se guardó la versión ${v + 1}. Los intentos ya realizados conservan la rúbrica con la que se hicieron y se calificaron.`,
    )
    await closeDialog(page)
    await expect(page.getByText(`Versión vigente: ${v + 1}.`)).toBeVisible()
    const saved = (await getConfig(page)).rubric
    expect(saved.version).toBe(v + 1)
    expect(saved.passScore).toBe(6.5)
    expect(saved.criteria.map((c) => c.id)).not.toContain(original.criteria[firstF].id)
    expect(saved.criteria.at(-1)).toMatchObject({
      name: 'Uso del tiempo de réplica',
      group: 'formalidades',
      descriptors: ['Descripción del nivel 1.', 'Descripción del nivel 2.', 'Descripción del nivel 3.', 'Descripción del nivel 4.'],
    })
    expect(saved.criteria[0].weight).toBe(c1.weight + 5)

    // The attempt made before keeps the rubric it was made with.
    const kept = await ok<{ rubric: Config['rubric'] }>(await studentApi.get(`/api/attempts/${earlier.id}`))
    expect(kept.rubric.version).toBe(v)
    expect(kept.rubric.criteria).toEqual(original.criteria)
  } finally {
    await ok(
      await tutorApi.put('/api/admin/config/derecho/rubric', { data: { criteria: original.criteria, passScore: original.passScore } }),
    )
    await Promise.all([tutorApi.dispose(), studentApi.dispose()])
  }
})
