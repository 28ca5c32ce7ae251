import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/**
 * expectAccessible: axe-core finds no serious or critical WCAG 2.2 AA
 * violation. Colours are measured once the page has settled: the header
 * turns from transparent to white when the page scrolls, with a 200 ms
 * transition, and light text measured halfway through fails contrast.
 */
export async function expectAccessible(page: Page) {
  // A page's content settles (lazy parts, the dark band under the
  // transparent header) within a few frames of its heading.
  await page.waitForTimeout(300)
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve))
    await frame()
    await frame() // a scroll handler's state change has rendered and started its transition
    // Transitions only: a recording indicator pulses forever.
    const transitions = document.getAnimations().filter((a) => a instanceof CSSTransition)
    await Promise.all(transitions.map((a) => a.finished.catch(() => undefined)))
  })
  // Legacy mode runs axe in the page itself. The default mode combines
  // the frames' results in a new blank page it opens for every scan, which
  // took about a second of each scan here; our pages have no cross-origin
  // frames for that mode to reach.
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([])
}
