import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from '@/lib/api-client'
import { showApiError } from '@/lib/errors'
import { retry } from '@/lib/retry'
import type { Attempt } from '@/types/api'

export type MoveKind = 'advance' | 'skip'

export type PhaseMoveDeps = {
  /** The phase the page shows (the attempt's current). */
  cur: number
  /** Ends the phase's take before the server is told. */
  stopRecording: () => Promise<void>
  /** Asks the server to end phase `from` (advance) or skip it. */
  send: (from: number, how: MoveKind) => Promise<Attempt>
  /** Reads the attempt again, after the server refused a move. */
  refetch: () => Promise<Attempt>
  /** Puts the server's answer in the page. */
  apply: (a: Attempt) => void
}

export const reconnectingText = 'No se pudo contactar al servidor para pasar a la siguiente fase. Reintentando…'

// A refusal that another try would not change (a 4xx other than a timeout
// or a busy server); anything else (the network, a 5xx) is tried again.
const definitive = (e: unknown): e is ApiError =>
  e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 408 && e.status !== 429

// usePhaseMove ends a phase: it stops the take, then tells the server,
// trying again with backoff until it answers (the server is idempotent and
// closes expired phases itself) or the page is left. The move counts as
// under way (advancing) until the page shows a later phase: the answer
// reaches the query cache a moment after the request ends, and in between
// the old phase must not start recording again. exclusive runs another
// action (abandoning) only when no move or action is under way.
export function usePhaseMove({ cur, stopRecording, send, refetch, apply }: PhaseMoveDeps) {
  const busy = useRef(false)
  const life = useRef<AbortController | null>(null)
  const [advancingFrom, setAdvancingFrom] = useState<number | null>(null)
  const [connection, setConnection] = useState<string | null>(null)

  useEffect(() => {
    const ctl = new AbortController()
    life.current = ctl
    return () => ctl.abort()
  }, [])

  // The page shows a later phase: the move is over.
  const advancing = advancingFrom !== null && cur <= advancingFrom
  useEffect(() => {
    if (!advancing) busy.current = false
  }, [advancing])

  const move = useCallback(
    async (from: number, how: MoveKind) => {
      if (busy.current) return
      const signal = life.current?.signal
      if (!signal || signal.aborted) return
      busy.current = true
      setAdvancingFrom(from)
      let moved = false
      const show = (next: Attempt) => {
        moved = next.current > from || next.status !== 'in_progress'
        apply(next)
      }
      try {
        await stopRecording()
        try {
          show(
            await retry(() => send(from, how), {
              shouldRetry: (e) => !definitive(e),
              onRetry: () => setConnection(reconnectingText),
              signal,
            }),
          )
        } catch (e) {
          if (signal.aborted || !definitive(e)) return
          if (!(e.status === 409 && e.code === 'phase_order')) void showApiError(e, 'No se pudo pasar de fase')
          try {
            show(await refetch())
          } catch {
            // the periodic refresh will bring the server's state
          }
        }
      } finally {
        if (!signal.aborted) setConnection(null)
        if (!moved) {
          busy.current = false
          if (!signal.aborted) setAdvancingFrom(null)
        }
      }
    },
    [stopRecording, send, refetch, apply],
  )

  const exclusive = useCallback(async (action: () => Promise<void>) => {
    if (busy.current) return
    busy.current = true
    try {
      await action()
    } finally {
      busy.current = false
    }
  }, [])

  return { move, advancing, connection, exclusive }
}
