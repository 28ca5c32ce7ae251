// The microphone check before the draw: a clear Spanish message when the
// browser denies the microphone or finds none, and no way to the recorded
// phases until it works (docs/product.md, "Phases", phase 0).
import type { Page } from '@playwright/test'
import {
  test,
  expect,
  classroom,
  signIn,
  chooseAndStart,
  phaseHeading,
  expectAccessible,
  failMicrophone,
  setMicrophoneFailure,
} from './support/simulator'

const denied =
  'El navegador bloqueó el acceso al micrófono. Para permitirlo, toque el ícono del candado o de ajustes junto a la dirección de la página, ' +
  'abra «Permisos» o «Configuración del sitio», cambie «Micrófono» a «Permitir» y vuelva a cargar la página.'
const noDevice = 'No se encontró ningún micrófono. Conecte uno (o active el del equipo) y vuelva a intentarlo.'

// toDeviceCheck goes from /test to the microphone check of a Simulacro.
async function toDeviceCheck(page: Page) {
  await page.goto('/test')
  await page.getByRole('radio', { name: /^Simulacro/ }).check()
  await page.getByRole('button', { name: 'Continuar' }).click()
  await expect(page.getByRole('heading', { name: 'Comprobación del micrófono' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Sortear caso y comenzar' })).toBeDisabled()
  await page.getByRole('button', { name: 'Probar micrófono' }).click()
}

const problem = (page: Page) => page.getByRole('alert').filter({ hasText: 'No se pudo usar el micrófono.' })

async function expectBlocked(page: Page, message: string) {
  const alert = problem(page)
  await expect(alert).toBeVisible()
  await expect(alert.locator('p')).toHaveText(['No se pudo usar el micrófono.', message])
  await expect(page.getByText('Micrófono listo.', { exact: false })).toHaveCount(0)
  await expect(page.getByRole('meter', { name: 'Nivel del micrófono' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Reintentar' })).toBeEnabled()
  await expect(page.getByRole('button', { name: 'Sortear caso y comenzar' })).toBeDisabled()
}

// noAttempt: nothing was drawn for the student.
async function expectNoAttempt(page: Page) {
  await page.goto('/auth/historial')
  await expect(page.getByText('Aún no tiene intentos.')).toBeVisible()
}

test('permission denied: the check explains how to allow the microphone, the draw stays closed, and a retry after allowing works', async ({
  page,
  server,
}) => {
  test.setTimeout(90_000)
  await failMicrophone(page, 'NotAllowedError')
  const { student } = await classroom(server)
  await signIn(page, student)
  await toDeviceCheck(page)
  await expectBlocked(page, denied)
  await expectAccessible(page)

  // Trying again while still denied changes nothing.
  await page.getByRole('button', { name: 'Reintentar' }).click()
  await expectBlocked(page, denied)

  // Once the student allows it, the retry opens the microphone.
  await setMicrophoneFailure(page, null)
  await page.getByRole('button', { name: 'Reintentar' }).click()
  await expect(page.getByText('Micrófono listo.', { exact: false })).toBeVisible()
  await expect(page.getByRole('meter', { name: 'Nivel del micrófono' })).toBeVisible()
  await expect(problem(page)).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Sortear caso y comenzar' })).toBeEnabled()
})

test('no microphone: the check says so and the draw stays closed', async ({ page, server }) => {
  test.setTimeout(90_000)
  await failMicrophone(page, 'NotFoundError')
  const { student } = await classroom(server)
  await signIn(page, student)
  await toDeviceCheck(page)
  await expectBlocked(page, noDevice)
  await expectAccessible(page)
  await page.getByRole('button', { name: 'Volver' }).click()
  await expect(page.getByRole('button', { name: 'Continuar' })).toBeVisible()
  await expectNoAttempt(page)
})

test('permission denied after a reload in the preparation: the attempt says the next phases are recorded and lets the student retry', async ({
  page,
  server,
}) => {
  test.setTimeout(90_000)
  await failMicrophone(page, null)
  const { student } = await classroom(server, { preparationSec: 120, presentationSec: 120 })
  await signIn(page, student)
  await chooseAndStart(page, 'Simulacro')
  await expect(phaseHeading(page)).toHaveText('Preparación')

  await setMicrophoneFailure(page, 'NotAllowedError')
  await page.reload()
  await expect(phaseHeading(page)).toHaveText('Preparación')
  const alert = page.getByRole('alert').filter({ hasText: 'El micrófono no está disponible' })
  await expect(alert.locator('p')).toHaveText(['El micrófono no está disponible; las fases siguientes se graban.', denied])
  await expectAccessible(page)

  await setMicrophoneFailure(page, null)
  await alert.getByRole('button', { name: 'Probar el micrófono otra vez' }).click()
  await expect(alert).toHaveCount(0)
  await page.getByRole('button', { name: 'Terminar preparación' }).click()
  await expect(phaseHeading(page)).toHaveText('Exposición')
  await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
})
