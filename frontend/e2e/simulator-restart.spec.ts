// No loss when the server dies: the chunks acknowledged before a crash are
// kept, the ones recorded while it is down wait in the browser, and the take
// completes, plays, and is composed into one object once the server is
// back. Run with recordings in a bucket too (project "bucket"), where
// nothing of the audio is on the server's disk, as on Cloud Run.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { test, expect, classroom, signIn, chooseAndStart, phaseHeading, getAttempt, localRecordings } from './support/simulator'

test('the server is killed during the presentation and started again: the take completes and plays', async ({ page, server }) => {
  test.setTimeout(120_000)
  const { student } = await classroom(server, {
    preparationSec: 30,
    presentationSec: 60,
    questions: 1,
    thinkSec: 60,
    answerSec: 60,
    closingSec: 60,
  })
  await signIn(page, student)
  const id = await chooseAndStart(page, 'Simulacro')
  await page.getByRole('button', { name: 'Terminar preparación' }).click()
  await expect(phaseHeading(page)).toHaveText('Exposición')
  await expect.poll(async () => (await getAttempt(page, id)).recordings[0]?.chunks ?? 0).toBeGreaterThanOrEqual(2)

  await server.restart(async () => {
    // While the server is down the browser keeps recording into IndexedDB.
    await expect.poll(async () => (await localRecordings(page, id))[0].pendingChunks, { timeout: 15_000 }).toBeGreaterThanOrEqual(2)
    await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
  })

  await expect(page.getByTestId('upload-status')).toHaveText('Guardado en el servidor', { timeout: 30_000 })
  await page.getByRole('button', { name: 'Terminar exposición' }).click()
  await expect(phaseHeading(page)).toHaveText('Pregunta 1: tiempo para pensar')
  await expect
    .poll(
      async () => {
        const [local] = await localRecordings(page, id)
        const [remote] = (await getAttempt(page, id)).recordings
        return local.completed && local.pendingChunks === 0 && remote?.complete === true && remote.chunks === local.nextSeq
      },
      { timeout: 20_000 },
    )
    .toBe(true)

  // The whole take plays, and a player can seek in it.
  const [take] = (await getAttempt(page, id)).recordings
  const url = `/api/attempts/${id}/recordings/${take.id}/media`
  const whole = await page.request.get(url)
  expect(whole.status()).toBe(200)
  const audio = await whole.body()
  expect(audio.length).toBe(take.bytes)
  expect(audio.subarray(0, 4).toString('hex')).toBe('1a45dfa3') // a WebM file starts with the EBML header
  const part = await page.request.get(url, { headers: { Range: `bytes=${take.bytes - 100}-` } })
  expect(part.status()).toBe(206)
  expect(Buffer.compare(await part.body(), audio.subarray(take.bytes - 100))).toBe(0)
  if (server.media === 'bucket') expect(existsSync(join(server.dataDir, 'media'))).toBe(false)

  // Once complete, the take's chunks are composed into one object (in the
  // background), verified and removed; it still plays the same.
  await expect.poll(() => server.mediaNames(`${id}/${take.id}`), { timeout: 20_000 }).toEqual(['recording'])
  const again = await page.request.get(url)
  expect(Buffer.compare(await again.body(), audio)).toBe(0)
})
