// Automatic evidence beside the rubric (student result, tutor grading),
// transcript corrections, the tutor's reports and the grades export.
import { readFileSync } from 'node:fs'
import { test, expect, apiAs, ok, setShortBlueprint, loadGroup, finishedAttempt, expectAccessible, type AttemptJSON } from './support/admin'

const transcript =
  'Buenos días, señores miembros del tribunal. Eh, los hechos son claros. Según el artículo 76 de la Constitución, este, ' +
  'y el artículo 33 del COIP, bueno, corresponde analizar el caso.'

async function setup(server: Parameters<typeof apiAs>[0]) {
  const tutor = await server.createUser('tutor')
  const student = await server.createUser('estudiante', { name: 'Rosa Evidencia Mora' })
  const tutorApi = await apiAs(server, tutor)
  await setShortBlueprint(tutorApi)
  await loadGroup(tutorApi, [student.email])
  const studentApi = await apiAs(server, student)
  const a = await finishedAttempt(studentApi, { level: 2 })
  const rec = a.recordings[0]
  await ok(
    await studentApi.put(`/api/attempts/${a.id}/recordings/${rec.id}/transcript`, {
      data: { source: 'browser', language: 'es-EC', segments: [{ startMs: 0, endMs: 900, text: transcript }] },
    }),
  )
  return { tutor, student, tutorApi, studentApi, attempt: a }
}

async function signInPage(page: import('@playwright/test').Page, server: { url: string }, user: { email: string; password: string }) {
  const res = await page.request.post(`${server.url}/api/auth/login`, { data: { email: user.email, password: user.password } })
  expect(res.status()).toBe(200)
}

test('the student sees the evidence, corrects the transcript, and the measures follow', async ({ page, server }) => {
  const { student, attempt } = await setup(server)
  await signInPage(page, server, student)
  await page.goto(`${server.url}/auth/historial/${attempt.id}`)
  const panel = page.getByRole('region', { name: 'Evidencia automática' })
  await expect(panel).toContainText('Saludó al tribunal')
  await expect(panel).toContainText('No se detectó un cierre formal')
  await expect(panel).toContainText('art. 76 de la Constitución')
  await expect(panel).toContainText('Pausas largas')
  await expectAccessible(page)

  await page.getByText('Transcripción', { exact: true }).first().click()
  await page.getByRole('button', { name: 'Corregir transcripción' }).click()
  await page.getByLabel(/Segmento 1/).fill(transcript + ' Es todo, muchas gracias por su atención.')
  await page.getByRole('button', { name: 'Guardar corrección' }).click()
  await expect(panel).toContainText('Cerró formalmente')
  await expect(page.getByText('Corregida a mano')).toBeVisible()
})

test('once the tutor grades, the student reads the transcript but can no longer correct it', async ({ page, server }) => {
  const { student, tutorApi, attempt } = await setup(server)
  const levels = Object.fromEntries(attempt.rubric.criteria.map((c) => [c.id, 3]))
  await ok<AttemptJSON>(await tutorApi.post(`/api/attempts/${attempt.id}/grade`, { data: { levels, comments: '' } }))
  await signInPage(page, server, student)
  await page.goto(`${server.url}/auth/historial/${attempt.id}`)
  await page.getByText('Transcripción', { exact: true }).first().click()
  await expect(page.getByText(transcript.slice(0, 40), { exact: false })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Corregir transcripción' })).toHaveCount(0)
})

test('the tutor sees transcript, measures and recordings while grading, and may correct', async ({ page, server }) => {
  const { tutor, attempt } = await setup(server)
  await signInPage(page, server, tutor)
  await page.goto(`${server.url}/admin/calificar/${attempt.id}`)
  const panel = page.getByRole('region', { name: 'Evidencia automática' })
  await expect(panel).toContainText('Saludó al tribunal')
  await expect(panel).toContainText('Muletillas')
  await expect(page.getByLabel(/Grabación/).first()).toBeVisible()
  await page.getByText('Transcripción', { exact: true }).first().click()
  await expect(page.getByText(transcript.slice(0, 40), { exact: false })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Corregir transcripción' })).toBeVisible()
})

test('reports show the group progress and results by area, and both exports are CSVs for Excel (es-EC) with BOM and accents', async ({
  page,
  server,
}) => {
  const { tutor, tutorApi, attempt } = await setup(server)
  const levels = Object.fromEntries(attempt.rubric.criteria.map((c) => [c.id, 4]))
  const comments = '=Excelente exposición; revise la vía procesal.'
  await ok<AttemptJSON>(await tutorApi.post(`/api/attempts/${attempt.id}/grade`, { data: { levels, comments } }))
  await signInPage(page, server, tutor)
  await page.goto(`${server.url}/admin/reportes`)
  await expect(page.getByRole('heading', { name: 'Reporte del grupo' })).toBeVisible()
  await expect(page.getByText('Tasa de aprobación')).toBeVisible()
  await expect(page.locator('dd', { hasText: '100 %' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Promedio por criterio' })).toBeVisible()
  await expect(page.getByText('Todos los estudiantes practicaron en los últimos 14 días.')).toBeVisible()
  await expectAccessible(page)
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Exportar calificaciones (CSV)' }).click(),
  ])
  const bytes = readFileSync((await download.path())!)
  expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]))
  const text = bytes.subarray(3).toString('utf8')
  // Excel in Ecuador separates fields with ";" (the comma is its decimal
  // separator); a cell starting with "=" would run as a formula.
  const [header, row] = text.split(/\r?\n/)
  expect(header.startsWith('Estudiante;Correo;Fecha;Modo;Caso;Área;Estado;Nota autoevaluación;Nota tutor;Aprobado;')).toBe(true)
  expect(row.startsWith('Rosa Evidencia Mora;')).toBe(true)
  expect(row).toContain(';10,00;Sí;')
  expect(row).toContain(`;"'${comments}";`)

  // Results by area of law: the attempt's area, its mark, and the key
  // points its transcript left out.
  const areas = page.getByRole('region', { name: 'Resultados por área del derecho' })
  const areaRow = areas.getByRole('row', { name: new RegExp(`^${attempt.case.area}`) })
  await expect(areaRow).toContainText('10,0 / 10')
  await expect(areaRow).toContainText('100 %')
  await expect(areaRow).toContainText(`(${attempt.case.title}: omitido en 1 de 1)`)
  const [byArea] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Exportar resultados por área (CSV)' }).click(),
  ])
  const areaText = readFileSync((await byArea.path())!)
    .subarray(3)
    .toString('utf8')
  expect(areaText.split(/\r?\n/)[1]).toBe(`${attempt.case.area};1;10,00;100,00;1;;;`)
})

test('the student home draws the levels per criterion', async ({ page, server }) => {
  const { student } = await setup(server)
  await signInPage(page, server, student)
  await page.goto(`${server.url}/auth/carreras`)
  await expect(page.getByText('Contenido: nivel por criterio en cada intento')).toBeVisible()
  await expect(page.getByText('Formalidades: nivel por criterio en cada intento')).toBeVisible()
  await expectAccessible(page)
})
