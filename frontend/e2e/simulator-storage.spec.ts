// Storage under pressure: the browser refuses to store recordings (a full
// or blocked quota, a private window, WebKit refusing Blobs, no IndexedDB at
// all), with and without a network drop. What is recorded while online must
// reach the server whole, and the page must tell the truth about it. Also:
// on a phone, the sticky status bar keeps the timer and the recording state
// in view in every phase, in the recorder card's words.
import type { Page } from '@playwright/test'
import { test, expect, classroom, signIn, chooseAndStart, phaseHeading, getAttempt, rateAll, expectPlayable } from './support/simulator'

type Refusal = 'every-write' | 'blobs-only' | 'no-indexeddb'

// refuseStorage makes the page's IndexedDB behave as a browser under
// pressure does: add/put fail their request (an error event, then the
// transaction aborts) with QuotaExceededError, or only for values holding a
// Blob (WebKit in a private window); or IndexedDB is missing entirely.
async function refuseStorage(page: Page, how: Refusal) {
  await page.addInitScript((how: Refusal) => {
    if (how === 'no-indexeddb') {
      Object.defineProperty(window, 'indexedDB', { value: undefined, configurable: true })
      return
    }
    const holdsBlob = (v: unknown) =>
      v instanceof Blob || (typeof v === 'object' && v !== null && Object.values(v).some((x) => x instanceof Blob))
    for (const method of ['add', 'put'] as const) {
      const original = IDBObjectStore.prototype[method]
      IDBObjectStore.prototype[method] = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
        if (how === 'blobs-only' && !holdsBlob(value)) return original.call(this, value, key)
        const error =
          how === 'blobs-only'
            ? new DOMException('Error preparing Blob/File data to be stored in object store', 'UnknownError')
            : new DOMException('The quota has been exceeded.', 'QuotaExceededError')
        const tx = this.transaction
        const request = Object.setPrototypeOf(new EventTarget(), IDBRequest.prototype) as IDBRequest
        Object.defineProperties(request, {
          error: { get: () => error },
          result: { get: () => undefined },
          readyState: { get: () => 'done' },
          source: { get: () => this },
          transaction: { get: () => tx },
        })
        setTimeout(() => {
          request.dispatchEvent(new Event('error', { cancelable: true }))
          try {
            tx.abort()
          } catch {
            // already finished
          }
        })
        return request
      }
    }
  }, how)
}

// storedChunkShapes lists what the page's IndexedDB holds for chunks (bytes
// or Blobs), to show nothing relies on a Blob being stored.
async function storedChunkShapes(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('simulador-grabaciones')
      r.onsuccess = () => resolve(r.result)
      r.onerror = () => reject(r.error)
    })
    try {
      if (!db.objectStoreNames.contains('chunks')) return []
      const rows = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
        const r = db.transaction('chunks', 'readonly').objectStore('chunks').getAll()
        r.onsuccess = () => resolve(r.result as Record<string, unknown>[])
        r.onerror = () => reject(r.error)
      })
      return rows.map((c) => (c.blob instanceof Blob ? 'blob' : c.data instanceof ArrayBuffer ? 'bytes' : 'other'))
    } finally {
      db.close()
    }
  })
}

// recordPhases goes through the attempt, waiting in each recorded phase until
// the server holds audio of its take, then ending the phase.
async function recordPhases(page: Page, id: string, during?: (title: string) => Promise<void>) {
  for (;;) {
    const title = (await phaseHeading(page).textContent()) ?? ''
    if (title === 'Autoevaluación') return
    if (/Exposición|respuesta|cierre/.test(title)) {
      await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
      const cur = (await getAttempt(page, id)).current
      await expect
        .poll(async () => (await getAttempt(page, id)).recordings.filter((r) => r.phase === cur).reduce((n, r) => n + r.chunks, 0), {
          timeout: 20_000,
        })
        .toBeGreaterThan(0)
      await during?.(title)
    }
    const finish = page.getByRole('button', {
      name: /^(Terminar preparación|Terminar exposición|Responder ahora|Terminar respuesta|Terminar cierre)$/,
    })
    if ((await phaseHeading(page).textContent()) === title) await finish.click({ timeout: 20_000 }).catch(() => undefined)
    await expect(phaseHeading(page)).not.toHaveText(title, { timeout: 20_000 })
  }
}

// expectAllOnServer: every recorded phase has a complete take with every
// chunk (the server completes a take only when chunks 0..n-1 are all there),
// and its media holds exactly the bytes received.
async function expectAllOnServer(page: Page, id: string) {
  await expect
    .poll(
      async () => {
        const a = await getAttempt(page, id)
        return a.recordings.map((r) => `${a.phases[r.phase].kind}:${r.complete && r.chunks > 0}`).sort()
      },
      { timeout: 60_000 },
    )
    .toEqual(['answer:true', 'closing:true', 'presentation:true'])
  for (const r of (await getAttempt(page, id)).recordings) {
    const media = await page.request.get(`/api/attempts/${id}/recordings/${r.id}/media`)
    expect(media.status()).toBe(200)
    expect((await media.body()).length).toBe(r.bytes)
  }
}

// start opens the simulator once with a generous deadline (the first load
// of the section on a busy machine), then starts an Entrenamiento.
async function start(page: Page) {
  await page.goto('/test')
  await expect(page.getByRole('heading', { name: 'Simulador', level: 1 })).toBeVisible({ timeout: 60_000 })
  return chooseAndStart(page, 'Entrenamiento')
}

const blueprint = { preparationSec: 60, presentationSec: 60, questions: 1, thinkSec: 60, answerSec: 60, closingSec: 60 }

for (const how of ['every-write', 'blobs-only', 'no-indexeddb'] as const) {
  test(`storage refused (${how}): a whole rehearsal reaches the server and the page tells the truth`, async ({ page, server }) => {
    test.setTimeout(240_000)
    const { student } = await classroom(server, blueprint)
    await refuseStorage(page, how)
    await signIn(page, student)
    const id = await start(page)
    const status = page.getByTestId('upload-status')
    await recordPhases(page, id, async () => {
      if (how === 'blobs-only') {
        // Bytes are stored where Blobs are refused: no need to send directly.
        await expect(status).not.toContainText('se envía directamente')
      } else {
        await expect(status).toContainText('se envía directamente al servidor')
        await expect(status).toContainText('podría perderse lo que aún no se haya enviado')
      }
    })
    await expect(status).toContainText('Guardado en el servidor', { timeout: 60_000 })
    await expectAllOnServer(page, id)
    if (how === 'blobs-only') expect(new Set(await storedChunkShapes(page))).not.toContain('blob')
    await rateAll(page, 3)
    await page.getByRole('button', { name: 'Enviar autoevaluación' }).click()
    await expect(page.getByRole('heading', { name: 'Compare su preparación con el caso' })).toBeVisible()
    await page.getByRole('link', { name: 'Ver resultado' }).click()
    await expectPlayable(page, 3)
  })
}

test('storage refused and the network drops: what was recorded reaches the server once it is back', async ({ page, context, server }) => {
  test.setTimeout(240_000)
  const { student } = await classroom(server, blueprint)
  await refuseStorage(page, 'every-write')
  await signIn(page, student)
  const id = await start(page)
  const status = page.getByTestId('upload-status')
  let online = 0
  await recordPhases(page, id, async (title) => {
    if (title !== 'Exposición') return
    online = (await getAttempt(page, id)).recordings[0].chunks
    await context.setOffline(true)
    // Chunks wait in the tab's memory, and the page says so.
    await expect(status).toContainText(/fragmentos? pendientes? — se enviarán? al reconectar/, { timeout: 15_000 })
    await expect(status).toContainText('memoria de esta pestaña')
    await expect(status).not.toContainText('Guardado en el servidor')
    await expect(page.locator('#barra-estado')).not.toContainText('Guardado en el servidor')
    await context.setOffline(false)
  })
  await expect(status).toContainText('Guardado en el servidor', { timeout: 60_000 })
  await expectAllOnServer(page, id)
  expect((await getAttempt(page, id)).recordings.find((r) => r.phase === 1)!.chunks).toBeGreaterThan(online)
})

test('on a phone, #barra-estado keeps the timer and the recording state in view in every phase', async ({ page, server }) => {
  test.setTimeout(240_000)
  await page.setViewportSize({ width: 390, height: 844 })
  const { student } = await classroom(server, blueprint)
  await signIn(page, student)
  await start(page)
  const bar = page.locator('#barra-estado')
  const seen: string[] = []
  for (;;) {
    const title = (await phaseHeading(page).textContent()) ?? ''
    const recorded = /Exposición|respuesta|cierre/.test(title)
    if (recorded) await expect(page.getByText('Grabando', { exact: true })).toBeVisible()
    // Fully inside the viewport, at the top of the scroll and at the bottom.
    for (const y of [0, 100_000]) {
      await page.evaluate((y) => window.scrollTo(0, y), y)
      await expect(bar).toBeInViewport({ ratio: 1 })
    }
    if (title !== 'Autoevaluación') await expect(bar.getByTestId('barra-tiempo')).toHaveText(/^\d+:\d\d$/)
    // The bar and the cards say the same thing (read in one go: the upload
    // state changes with every chunk).
    await expect
      .poll(() =>
        page.evaluate(() => {
          const text = (sel: string) => document.querySelector(sel)?.textContent?.trim() ?? null
          const card = text('[data-testid="recording-state"]')
          const barState = text('#barra-estado [data-testid="barra-grabacion"]')
          const upload = document.querySelector('[data-testid="upload-status"] .font-semibold')?.textContent?.trim() ?? null
          const barUpload = text('#barra-estado [data-testid="barra-subida"]')?.replace(/^✓ /, '') ?? null
          return {
            state: card === null ? barState === '· Esta fase no se graba' : barState?.startsWith(`· ${card}`),
            upload: upload === null || barUpload === upload,
          }
        }),
      )
      .toEqual({ state: true, upload: true })
    seen.push(title)
    if (title === 'Autoevaluación') break
    const finish = page.getByRole('button', {
      name: /^(Terminar preparación|Terminar exposición|Responder ahora|Terminar respuesta|Terminar cierre)$/,
    })
    await finish.click({ timeout: 20_000 })
    await expect(phaseHeading(page)).not.toHaveText(title, { timeout: 20_000 })
  }
  expect(seen).toEqual([
    'Preparación',
    'Exposición',
    'Pregunta 1: tiempo para pensar',
    'Pregunta 1: respuesta',
    'Alegato de cierre',
    'Autoevaluación',
  ])
})
