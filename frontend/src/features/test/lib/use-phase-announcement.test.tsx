import { describe, expect, it } from 'vitest'
import { renderHook } from '@testing-library/react'
import { createRef } from 'react'
import { usePhaseAnnouncement } from './use-phase-announcement'

const presentation = { kind: 'presentation', index: 0, limitSec: 300 } as const
const think = { kind: 'think', index: 1, limitSec: 60 } as const

describe('usePhaseAnnouncement', () => {
  it('announces a new phase, not the one the page opened on, and the warnings as they come', () => {
    const heading = createRef<HTMLElement>()
    const { result, rerender } = renderHook(({ cur, phase, warning }) => usePhaseAnnouncement(cur, phase, warning, heading), {
      initialProps: {
        cur: 1,
        phase: presentation as { kind: 'presentation' | 'think'; index: number; limitSec: number },
        warning: { text: '', n: 0 },
      },
    })
    expect(result.current).toBe('')
    rerender({ cur: 1, phase: presentation, warning: { text: 'Quedan 2 minutos.', n: 1 } })
    expect(result.current).toBe('Quedan 2 minutos.')
    rerender({ cur: 2, phase: think, warning: { text: 'Quedan 2 minutos.', n: 1 } })
    expect(result.current).toMatch(/^Comienza: Pregunta 1: tiempo para pensar\. /)
    rerender({ cur: 2, phase: think, warning: { text: 'Quedan 30 segundos.', n: 2 } })
    expect(result.current).toBe('Quedan 30 segundos.')
  })

  it('moves a lost focus to the new phase’s title', () => {
    const title = document.createElement('h2')
    title.tabIndex = -1
    document.body.append(title)
    const heading = { current: title }
    const { rerender } = renderHook(({ cur }) => usePhaseAnnouncement(cur, cur === 0 ? presentation : think, { text: '', n: 0 }, heading), {
      initialProps: { cur: 0 },
    })
    expect(document.activeElement).toBe(document.body)
    rerender({ cur: 1 })
    expect(document.activeElement).toBe(title)
    title.remove()
  })
})
