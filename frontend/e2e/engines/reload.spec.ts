// A reload in the middle of the presentation: the attempt resumes in the
// same phase with a new part, and both parts reach the server complete.
import { apiAs } from '../support/admin'
import { classroom } from '../support/simulator'
import { test, expect } from './support/fixtures'
import { getAttempt, phaseTitle, recordedType, signInWithPassword, startAttempt } from './support/journeys'
import { pollUntil } from './support/driver'

test('a reload during the presentation resumes it with a new part, and no chunk is lost', async ({ open, server, engine }) => {
  const { student } = await classroom(server, {
    preparationSec: 60,
    presentationSec: 120,
    questions: 1,
    thinkSec: 60,
    answerSec: 60,
    closingSec: 60,
  })
  const api = await apiAs(server, student)
  const b = await open()
  await signInWithPassword(b, student)
  const id = await startAttempt(b, 'Entrenamiento')
  await b.click({ role: 'button', name: 'Terminar preparación' })
  await pollUntil('the presentation', 20_000, async () => ((await phaseTitle(b)) === 'Exposición' ? true : undefined))
  await b.waitFor({ text: 'Grabando' })
  const first = await pollUntil('two chunks of the first part on the server', 30_000, async () =>
    (await getAttempt(api, id)).recordings.find((r) => r.phase === 1 && r.chunks >= 2),
  )

  await b.reload()

  // The same phase goes on, recording a second part; the first is closed
  // with everything it had.
  await pollUntil('the presentation after the reload', 20_000, async () => ((await phaseTitle(b)) === 'Exposición' ? true : undefined))
  await b.waitFor({ text: 'Grabando' })
  await pollUntil('two chunks of the second part on the server', 30_000, async () =>
    (await getAttempt(api, id)).recordings.find((r) => r.phase === 1 && r.id !== first.id && r.chunks >= 2),
  )
  await b.click({ role: 'button', name: 'Terminar exposición' })
  await pollUntil('the phase after the presentation', 20_000, async () => ((await phaseTitle(b)) !== 'Exposición' ? true : undefined))
  const parts = await pollUntil('both parts complete on the server', 30_000, async () => {
    const takes = (await getAttempt(api, id)).recordings.filter((r) => r.phase === 1)
    return takes.length === 2 && takes.every((r) => r.complete && r.chunks > 0 && r.bytes > 0) ? takes : undefined
  })
  const part1 = parts.find((r) => r.id === first.id)!
  expect(part1.chunks).toBeGreaterThanOrEqual(first.chunks)
  for (const take of parts) {
    expect(take.mimeType).toMatch(recordedType[engine])
    await expect.poll(() => server.mediaNames(`${id}/${take.id}`), { timeout: 20_000 }).toEqual(['recording'])
  }
  await api.dispose()
})
