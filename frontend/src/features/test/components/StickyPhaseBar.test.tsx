import { act, render } from '@testing-library/react'
import { createRef } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { StickyPhaseBar } from './StickyPhaseBar'

describe('StickyPhaseBar', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('shows the bar when the phase card scrolls away without moving anything on the page', () => {
    // The phase card's visibility, as the browser's IntersectionObserver reports it.
    let report: (visible: boolean) => void = () => undefined
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(cb: (entries: { isIntersecting: boolean }[]) => void) {
          report = (visible) => cb([{ isIntersecting: visible }])
        }
        observe() {}
        disconnect() {}
      },
    )
    const card = createRef<HTMLElement>()
    const { container } = render(
      <>
        <section ref={card}>Fase</section>
        <StickyPhaseBar target={card} label="Exposición" secondsLeft={90} limitSec={300} paused={false} recording={null} upload={null} />
        <button type="button">Abandonar intento</button>
      </>,
    )
    const room = () => container.querySelector('#barra-estado')?.previousElementSibling?.outerHTML
    const bar = () => container.querySelector('#barra-estado')!

    act(() => report(true))
    const roomWhileCardInView = room()
    expect(bar().className).toContain('md:hidden')

    act(() => report(false))
    expect(bar().className).not.toContain('md:hidden')
    // The room kept for the bar above "Abandonar intento" is the same as
    // before: the button stays where the student's pointer is.
    expect(room()).toBe(roomWhileCardInView)
    expect(roomWhileCardInView).toContain('h-16')
    expect(roomWhileCardInView).not.toContain('md:hidden')
  })
})
