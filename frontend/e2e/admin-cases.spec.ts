// The tutor's case bank (docs/product.md, /admin Banco de casos).
import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { signIn, expectDialog, closeDialog, dialog } from './support/fixtures'
import { test, expect, apiAs, ok, loadGroup, setShortBlueprint } from './support/admin'

type CaseJSON = {
  id: string
  title: string
  area: string
  status: string
  demo: boolean
  facts: string
  degreeId: string
  difficulty: string
  followUpKeyPoints: number[]
  legalBases: { norm: string; article: string; note?: string }[]
  review?: { by: string; byName: string; at: string }
}

const unique = () => Date.now().toString(36) + Math.floor(Math.random() * 1e6).toString(36)

async function listCases(page: Page, query = ''): Promise<CaseJSON[]> {
  return ok<CaseJSON[]>(await page.request.get(`/api/admin/cases${query}`))
}

test('a tutor creates, edits, reviews, retires and reactivates a case', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  await signIn(page, tutor)
  await page.goto('/admin/casos')
  await expect(page.getByRole('link', { name: 'Banco de casos' })).toHaveAttribute('aria-current', 'page')
  // The demo bank is there, marked as demo content.
  await expect(page.getByText('Los casos marcados Demo son contenido de demostración: revisar antes de usar en evaluación.')).toBeVisible()
  await expect(page.getByText(/^Demo$/).first()).toBeVisible()

  await page.getByRole('link', { name: 'Nuevo caso' }).click()
  await expect(page).toHaveURL(/\/admin\/casos\/nuevo$/)

  // An empty case: the server's problems appear beside each field.
  await page.getByRole('button', { name: 'Crear caso' }).click()
  const summary = page.getByRole('alert').filter({ hasText: 'El caso tiene datos incompletos o no válidos' })
  await expect(summary).toBeVisible()
  await expect(summary).toBeFocused()
  await expect(page.getByLabel('Título')).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Título')).toHaveAccessibleDescription('El título es obligatorio.')
  await expect(page.getByLabel('Área')).toHaveAccessibleDescription(/El área es obligatorio\./)
  await expect(page.getByRole('group', { name: 'Preguntas del caso' })).toHaveAccessibleDescription(
    /Preguntas: se esperan entre 1 y 5 elementos \(hay 0\)\./,
  )
  await expect(page.getByRole('group', { name: 'Dificultad' })).toHaveAccessibleDescription(/La dificultad es obligatoria/)

  const title = `Despido de trabajadora embarazada ${unique()}`
  await page.getByLabel('Área').fill('Laboral')
  await page.getByLabel('Título').fill(title)
  await page.getByRole('group', { name: 'Dificultad' }).getByLabel('Intermedio').check()
  await page.getByLabel('Hechos del caso').fill('María fue despedida al comunicar su embarazo a su empleador.')
  await page.getByLabel('Pregunta 1', { exact: true }).fill('¿Qué acción procede y ante quién?')
  await page.getByLabel('Pregunta del tribunal 1', { exact: true }).fill('¿Cuál es la indemnización?')
  await page.getByRole('button', { name: 'Agregar pregunta del tribunal' }).click()
  await page.getByLabel('Pregunta del tribunal 2', { exact: true }).fill('¿Ante qué juez se demanda?')
  await page.getByLabel('Punto clave 1', { exact: true }).fill('Despido ineficaz')
  await page.getByRole('button', { name: 'Agregar punto clave' }).click()
  await expect(page.getByLabel('Punto clave 2', { exact: true })).toBeFocused()
  await page.keyboard.type('Reintegro y remuneraciones pendientes')
  // Each tribunal question is linked to the key point that answers it.
  await page.getByLabel('Respuesta a la pregunta del tribunal 1').selectOption({ label: '2. Reintegro y remuneraciones pendientes' })
  await page.getByLabel('Respuesta a la pregunta del tribunal 2').selectOption({ label: '1. Despido ineficaz' })
  await page.getByLabel('Norma 1').fill('Código del Trabajo')
  await page.getByLabel('Artículo 1').fill('artículo ciento noventa y cinco')
  await page.getByLabel('Descripción 1').fill('Prohibición de despido y despido ineficaz.')
  await page.getByRole('button', { name: 'Crear caso' }).click()
  await expect(page.getByRole('group', { name: 'Bases legales esperadas' })).toHaveAccessibleDescription(
    /el artículo «artículo ciento noventa y cinco» no es válido/,
  )
  await expect(page.getByLabel('Título')).not.toHaveAttribute('aria-invalid', 'true')
  await page.getByLabel('Artículo 1').fill('195.1')
  await page.getByRole('button', { name: 'Crear caso' }).click()
  await expectDialog(page, 'Caso creado', 'El caso se agregó al banco de casos.')
  await closeDialog(page)
  await expect(page).toHaveURL(/\/admin\/casos$/)

  // Find it with the filters.
  await page.getByLabel('Área').selectOption('Laboral')
  await page.getByLabel('Buscar').fill(title.split(' ').pop()!)
  await expect(page.getByText('1 caso(s)')).toBeVisible()
  await expect(page).toHaveURL(/area=Laboral/)
  const item = page.getByRole('listitem').filter({ hasText: title })
  await expect(item).toContainText('Activo')
  await expect(item.getByText(/^Demo/)).toHaveCount(0)
  await expect(item).toContainText('Intermedio')
  let [created] = (await listCases(page, `?q=${encodeURIComponent(title)}`)) as CaseJSON[]
  expect(created).toMatchObject({
    title,
    area: 'Laboral',
    status: 'active',
    demo: false,
    degreeId: 'derecho',
    difficulty: 'intermedio',
    followUpKeyPoints: [2, 1],
  })
  expect(created.legalBases).toEqual([
    expect.objectContaining({ norm: 'Código del Trabajo', article: '195.1', note: 'Prohibición de despido y despido ineficaz.' }),
  ])
  // The difficulty filter.
  await page.getByLabel('Dificultad').selectOption('Avanzado')
  await expect(page.getByText('0 caso(s)')).toBeVisible()
  await page.getByLabel('Dificultad').selectOption('Intermedio')
  await expect(page.getByText('1 caso(s)')).toBeVisible()
  await expect(page).toHaveURL(/dificultad=intermedio/)
  await page.getByLabel('Dificultad').selectOption('Todas')
  await expect(page.getByText('1 caso(s)')).toBeVisible()

  // Edit: new facts, marked as demo.
  await item.getByRole('link', { name: `Editar «${title}»` }).click()
  await expect(page.getByLabel('Título')).toHaveValue(title)
  await expect(page.getByLabel('Punto clave 2', { exact: true })).toHaveValue('Reintegro y remuneraciones pendientes')
  await expect(page.getByRole('group', { name: 'Dificultad' }).getByLabel('Intermedio')).toBeChecked()
  await expect(page.getByLabel('Descripción 1')).toHaveValue('Prohibición de despido y despido ineficaz.')
  // Removing the first key point keeps the links on the same texts.
  await page.getByRole('button', { name: 'Quitar punto clave 1' }).click()
  await expect(page.getByLabel('Respuesta a la pregunta del tribunal 1')).toHaveValue('1')
  await expect(page.getByLabel('Respuesta a la pregunta del tribunal 2')).toHaveValue('0')
  await page.getByRole('group', { name: 'Dificultad' }).getByLabel('Básico').check()
  await page.getByLabel('Hechos del caso').fill('María fue despedida dos días después de comunicar su embarazo.')
  await page.getByLabel('Marcar como contenido de demostración').check()
  await expect(page.getByText('Contenido de demostración: revisar antes de usar en evaluación.')).toBeVisible()
  await page.getByRole('button', { name: 'Guardar cambios' }).click()
  await expectDialog(page, 'Caso guardado')
  await closeDialog(page)
  await expect(page).toHaveURL(/\/admin\/casos\?/)
  await expect(item.getByText(/^Demo/)).toBeVisible()
  ;[created] = await listCases(page, `?q=${encodeURIComponent(title)}`)
  expect(created).toMatchObject({
    facts: 'María fue despedida dos días después de comunicar su embarazo.',
    demo: true,
    difficulty: 'basico',
    followUpKeyPoints: [1, 0],
  })

  // Mark it reviewed: it stops being demo content and says who reviewed it.
  await item.getByRole('link', { name: `Editar «${title}»` }).click()
  await expect(page.getByText('Este caso aún no ha sido revisado por un docente.')).toBeVisible()
  await page.getByRole('button', { name: 'Marcar como revisado' }).click()
  await expectDialog(page, '¿Marcar el caso como revisado?')
  await dialog(page).getByRole('button', { name: 'Sí, marcar como revisado' }).click()
  await expectDialog(page, 'Caso revisado', 'El caso quedó marcado como revisado por usted.')
  await closeDialog(page)
  await expect(page.getByText(/^Revisado por Tania Tutora Ruiz el /)).toBeVisible()
  await expect(page.getByLabel('Marcar como contenido de demostración')).not.toBeChecked()
  await page.getByRole('link', { name: '← Volver al banco de casos' }).click()
  await page.getByLabel('Revisión').selectOption('Revisados')
  await expect(page.getByText('1 caso(s)')).toBeVisible()
  await expect(item.getByText(/^Demo/)).toHaveCount(0)
  await expect(item).toContainText('Revisado por Tania Tutora Ruiz')
  ;[created] = await listCases(page, `?q=${encodeURIComponent(title)}`)
  expect(created).toMatchObject({ demo: false, review: { by: tutor.email, byName: 'Tania Tutora Ruiz' } })
  await page.getByLabel('Revisión').selectOption('Todos')

  // Retire, after a confirmation; then reactivate.
  await item.getByRole('button', { name: `Retirar «${title}»` }).click()
  await expectDialog(page, '¿Retirar el caso?')
  await dialog(page).getByRole('button', { name: 'Sí, retirar' }).click()
  await expectDialog(page, 'Caso retirado', 'El caso ya no se sorteará.')
  await closeDialog(page)
  await expect(item).toContainText('Retirado')
  expect((await ok<CaseJSON>(await page.request.get(`/api/admin/cases/${created.id}`))).status).toBe('retired')
  await page.getByLabel('Estado').selectOption('retired')
  await expect(page.getByText('1 caso(s)')).toBeVisible()
  await item.getByRole('button', { name: `Reactivar «${title}»` }).click()
  await expectDialog(page, 'Caso reactivado')
  await closeDialog(page)
  expect((await ok<CaseJSON>(await page.request.get(`/api/admin/cases/${created.id}`))).status).toBe('active')

  // The same title twice in a degree is refused beside the title.
  await page.goto('/admin/casos/nuevo')
  await page.getByLabel('Área').fill('Laboral')
  await page.getByLabel('Título').fill(title)
  await page.getByRole('group', { name: 'Dificultad' }).getByLabel('Básico').check()
  await page.getByLabel('Hechos del caso').fill('Otro relato.')
  await page.getByLabel('Pregunta 1', { exact: true }).fill('¿?')
  await page.getByLabel('Pregunta del tribunal 1', { exact: true }).fill('¿?')
  await page.getByRole('button', { name: 'Agregar pregunta del tribunal' }).click()
  await page.getByLabel('Pregunta del tribunal 2', { exact: true }).fill('¿¿?')
  await page.getByLabel('Punto clave 1', { exact: true }).fill('Uno')
  await page.getByRole('button', { name: 'Crear caso' }).click()
  await expect(page.getByLabel('Título')).toHaveAccessibleDescription(`Ya existe un caso con el título «${title}» en esta carrera.`)
})

test('a retired case is never drawn', async ({ page, server }) => {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante')
  const tutorApi = await apiAs(server, tutor)
  const studentApi = await apiAs(server, student)
  await setShortBlueprint(tutorApi)
  await loadGroup(tutorApi, [student.email])
  const area = 'Niñez y Familia'
  const active = await ok<(CaseJSON & Record<string, unknown>)[]>(
    await tutorApi.get(`/api/admin/cases?degree=derecho&status=active&area=${encodeURIComponent(area)}`),
  )
  expect(active.length).toBeGreaterThan(2)
  const [keep, first, ...rest] = active

  // Retire one in the page, the others through the API.
  await signIn(page, tutor)
  await page.goto(`/admin/casos?carrera=derecho&area=${encodeURIComponent(area)}&estado=active`)
  await page.getByRole('button', { name: `Retirar «${first.title}»` }).click()
  await dialog(page).getByRole('button', { name: 'Sí, retirar' }).click()
  await expectDialog(page, 'Caso retirado')
  await closeDialog(page)
  for (const c of rest) await ok(await tutorApi.put(`/api/admin/cases/${c.id}`, { data: { ...c, status: 'retired' } }))
  await page.reload()
  await expect(page.getByText('1 caso(s)')).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: keep.title })).toBeVisible()

  try {
    for (let i = 0; i < 4; i++) {
      const a = await ok<{ id: string; case: { id: string; area: string } }>(
        await studentApi.post('/api/attempts', { data: { mode: 'entrenamiento', area } }),
        201,
      )
      expect(a.case).toMatchObject({ id: keep.id, area })
      await ok(await studentApi.post(`/api/attempts/${a.id}/abandon`))
    }
  } finally {
    // Give the bank back to the other tests of this worker.
    for (const c of [first, ...rest]) await ok(await tutorApi.put(`/api/admin/cases/${c.id}`, { data: { ...c, status: 'active' } }))
    await Promise.all([tutorApi.dispose(), studentApi.dispose()])
  }
})

test('JSON and CSV exports import back as updates', async ({ page, server }) => {
  await signIn(page, await server.createUser('tutor'))
  await page.goto('/admin/casos')
  await page.getByLabel('Carrera').selectOption('derecho')
  const total = (await listCases(page, '?degree=derecho')).length
  expect(total).toBeGreaterThanOrEqual(30)

  for (const format of ['JSON', 'CSV'] as const) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `Exportar ${format}` }).click()])
    expect(download.suggestedFilename()).toBe(`casos-derecho.${format.toLowerCase()}`)
    const buffer = readFileSync(await download.path())
    if (format === 'JSON') expect(JSON.parse(buffer.toString('utf8'))).toHaveLength(total)
    else expect(buffer.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
    await page
      .getByLabel('Archivo de casos')
      .setInputFiles({ name: download.suggestedFilename(), mimeType: format === 'JSON' ? 'application/json' : 'text/csv', buffer })
    await page.getByRole('button', { name: 'Importar' }).click()
    await expectDialog(page, 'Casos importados', `Casos creados: 0. Casos actualizados: ${total}.`)
    await closeDialog(page)
    await expect(page.getByLabel('Archivo de casos')).toHaveValue('')
  }
  expect((await listCases(page, '?degree=derecho')).length).toBe(total)
})

test('a bad import file lists its rows and columns and changes nothing', async ({ page, server }) => {
  await signIn(page, await server.createUser('tutor'))
  await page.goto('/admin/casos')
  const before = await listCases(page)
  const newTitle = `Caso nuevo válido ${unique()}`
  // Each row has two tribunal questions in one cell (two lines of the file);
  // problems name the row as a spreadsheet shows it, the header being row 1.
  const csv = [
    'degree,area,title,facts,questions,followUps,keyPoints,legalBases,status,demo',
    `Derecho,Penal,${newTitle},Hechos,¿Pregunta?,"¿Repregunta?\n¿Otra repregunta?",Punto,COIP: 140,active,false`,
    'Derecho,Penal,,Hechos,¿Pregunta?,"¿Repregunta?\n¿Otra repregunta?",Punto,COIP: 140,active,false',
    'Medicina,Penal,Otro título,Hechos,¿Pregunta?,"¿Repregunta?\n¿Otra repregunta?",Punto,COIP: 140,active,false',
    'Derecho,Civil,Tercer título,Hechos,¿Pregunta?,"¿Repregunta?\n¿Otra repregunta?",Punto,Código Civil sin artículo,active,quizá',
  ].join('\n')
  await page.getByLabel('Archivo de casos').setInputFiles({ name: 'casos.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await page.getByRole('button', { name: 'Importar' }).click()
  await expectDialog(page, 'No se importó el archivo')
  const d = dialog(page)
  await expect(d).toContainText('demo debe ser true o false.')
  await expect(d).toContainText('Fila 5, columna «legalBases»: «Código Civil sin artículo» debe tener la forma «Norma: artículo».')
  await closeDialog(page)

  // Fix the CSV syntax: now the rows are checked one by one.
  const csv2 = csv.replace('Código Civil sin artículo', 'Código Civil: 1453').replace(',quizá', ',false')
  await page.getByLabel('Archivo de casos').setInputFiles({ name: 'casos.csv', mimeType: 'text/csv', buffer: Buffer.from(csv2) })
  await page.getByRole('button', { name: 'Importar' }).click()
  await expectDialog(page, 'No se importó el archivo')
  await expect(d).toContainText('El archivo de casos tiene errores; no se importó nada.')
  await expect(d).toContainText('Fila 3, columna «title»: El título es obligatorio.')
  await expect(d).toContainText('Fila 4, columna «degree»: La carrera «Medicina» no existe.')
  await closeDialog(page)

  // A JSON file with an unknown field, and a file of another kind.
  await page
    .getByLabel('Archivo de casos')
    .setInputFiles({ name: 'casos.json', mimeType: 'application/json', buffer: Buffer.from('[{"degree":"Derecho","titulo":"x"}]') })
  await page.getByRole('button', { name: 'Importar' }).click()
  await expect(d).toContainText('Fila 1: Caso no válido: campo desconocido "titulo".')
  await closeDialog(page)

  const after = await listCases(page)
  expect(after.length).toBe(before.length)
  expect(after.find((c) => c.title === newTitle)).toBeUndefined()
})
