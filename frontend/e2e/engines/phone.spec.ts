// On a phone (390×844) the status bar with the timer and the recording
// state stays in view in every phase, at the top of the page and scrolled
// to its end.
import { apiAs } from '../support/admin'
import { classroom } from '../support/simulator'
import { test, expect } from './support/fixtures'
import { rehearse, signInWithPassword, startAttempt } from './support/journeys'
import type { EngineBrowser } from './support/driver'

const recorded = /Exposición|respuesta|cierre/

// Where #barra-estado is, against the viewport, and what it says.
function statusBar(b: EngineBrowser) {
  return b.evaluate(() => {
    const bar = document.getElementById('barra-estado')
    if (!bar) return null
    const r = bar.getBoundingClientRect()
    return { top: r.top, bottom: r.bottom, height: r.height, viewport: window.innerHeight, text: bar.innerText }
  })
}

async function expectBarInView(b: EngineBrowser, title: string) {
  const bar = await statusBar(b)
  expect(bar, `#barra-estado in "${title}"`).not.toBeNull()
  expect(bar!.height, `#barra-estado is drawn in "${title}"`).toBeGreaterThan(0)
  expect(bar!.top, `#barra-estado's top in "${title}"`).toBeGreaterThanOrEqual(0)
  expect(bar!.bottom, `#barra-estado's bottom in "${title}"`).toBeLessThanOrEqual(bar!.viewport)
  expect(bar!.text, `the timer in "${title}"`).toMatch(/\d+:\d{2}/)
  if (recorded.test(title)) expect(bar!.text, `the recording state in "${title}"`).toMatch(/Grabando/)
}

test('at 390×844 #barra-estado (timer and recording state) is in view in every phase', async ({ open, server, engine }) => {
  const { student } = await classroom(server, {
    preparationSec: 60,
    presentationSec: 90,
    questions: 1,
    thinkSec: 30,
    answerSec: 90,
    closingSec: 90,
  })
  const api = await apiAs(server, student)
  const b = await open()
  const size = await b.setViewport(390, 844)
  expect(size.height).toBe(844)
  // MiniBrowser's toolbar keeps its window wider than a phone; the layout
  // is still the narrow one (below Tailwind's sm breakpoint, 640 px).
  if (engine === 'webkit') expect(size.width).toBeLessThan(640)
  else expect(size.width).toBe(390)
  await signInWithPassword(b, student)
  const id = await startAttempt(b, 'Entrenamiento')
  const checked: string[] = []
  await rehearse(b, api, id, async (title) => {
    if (recorded.test(title)) await b.waitFor({ text: 'Grabando' })
    await b.evaluate(() => window.scrollTo(0, 0))
    await expectBarInView(b, title)
    await b.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    await expectBarInView(b, `${title}, scrolled to the end`)
    await b.evaluate(() => window.scrollTo(0, 0))
    checked.push(title)
  })
  expect(checked).toEqual(['Preparación', 'Exposición', 'Pregunta 1: tiempo para pensar', 'Pregunta 1: respuesta', 'Alegato de cierre'])
  await api.dispose()
})
