import { useEffect, useRef, useState, type RefObject } from 'react'
import { phaseName } from '@/lib/attempts'
import type { Phase } from '@/types/api'
import { phaseInstruction } from './timeline'

// usePhaseAnnouncement is what the runner's live region says: "Comienza: …"
// when a new phase starts (not the phase the page opened on), and the time
// warnings as they come (warning.n counts them). When a new phase starts
// and the focus was lost (the previous phase's controls are gone), the
// focus goes to the phase's title.
export function usePhaseAnnouncement(
  cur: number,
  phase: Pick<Phase, 'kind' | 'index' | 'limitSec'> | undefined,
  warning: { text: string; n: number },
  heading: RefObject<HTMLElement | null>,
): string {
  const [said, setSaid] = useState<{ phase: number | null; warning: number; text: string }>({
    phase: phase ? cur : null,
    warning: warning.n,
    text: '',
  })
  let text = said.text
  if (phase && said.phase !== cur) {
    // The first phase seen is only noted: the page opened on it.
    if (said.phase !== null) text = `Comienza: ${phaseName(phase)}. ${phaseInstruction(phase)}`
    setSaid({ phase: cur, warning: warning.n, text })
  } else if (warning.n !== said.warning) {
    if (warning.text) text = warning.text
    setSaid({ phase: said.phase, warning: warning.n, text })
  }

  const focusedFor = useRef<number | null>(null)
  useEffect(() => {
    if (!phase) return
    if (focusedFor.current === null) {
      focusedFor.current = cur
      return
    }
    if (focusedFor.current === cur) return
    focusedFor.current = cur
    const active = document.activeElement
    if (!active || active === document.body || !document.contains(active)) heading.current?.focus()
  }, [cur, phase, heading])

  return text
}
