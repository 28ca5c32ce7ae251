import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { attemptKeys } from '@/lib/attempts'
import { storeAnswer } from '@/lib/store-answer'
import type { Attempt, Difficulty, Levels, LevelsRequest, Mode, NotesRequest, PhaseRequest, StartRequest } from '@/types/api'
import { serverClock } from '../lib/clock'

// The attempt runner's requests. Every answer carries serverTime, which keeps
// the page's server clock right (see lib/clock).

const base = (id: string) => `/api/attempts/${encodeURIComponent(id)}`

async function timed(request: () => Promise<Attempt>): Promise<Attempt> {
  const sentAt = Date.now()
  const a = await request()
  serverClock.note(a.serverTime, sentAt, Date.now())
  return a
}

export const fetchAttempt = (id: string) => timed(() => api.get<Attempt>(base(id)))

/**
 * startAttempt draws a case; area and difficulty narrow a training draw only.
 * A directed training draw ("Sorteo dirigido") ignores them: the server aims
 * at the student's weakest area and answers why.
 */
export const startAttempt = (mode: Mode, area: string, difficulty: Difficulty | '' = '', directed = false) =>
  timed(() =>
    api.post<Attempt>(
      '/api/attempts',
      (mode !== 'entrenamiento'
        ? { mode }
        : directed
          ? { mode, directed: true }
          : { mode, ...(area ? { area } : {}), ...(difficulty ? { difficulty } : {}) }) satisfies StartRequest,
    ),
  )

export const advancePhase = (id: string, from: number) =>
  timed(() => api.post<Attempt>(`${base(id)}/advance`, { from } satisfies PhaseRequest))
export const skipPhase = (id: string, from: number) => timed(() => api.post<Attempt>(`${base(id)}/skip`, { from } satisfies PhaseRequest))
export const pauseAttempt = (id: string) => timed(() => api.post<Attempt>(`${base(id)}/pause`))
export const resumeAttempt = (id: string) => timed(() => api.post<Attempt>(`${base(id)}/resume`))
export const abandonAttempt = (id: string) => timed(() => api.post<Attempt>(`${base(id)}/abandon`))
export const submitSelfAssessment = (id: string, levels: Levels) =>
  timed(() => api.post<Attempt>(`${base(id)}/self-assessment`, { levels } satisfies LevelsRequest))
export const saveNotes = (id: string, notes: string) => api.put<void>(`${base(id)}/notes`, { notes } satisfies NotesRequest)

// The runner's view of an attempt: polled now and then so that the server's
// own closing of expired phases (and the clock) stay in view.
export const runnerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: attemptKeys.one(id),
    queryFn: () => fetchAttempt(id),
    staleTime: 0,
    refetchInterval: 30_000,
  })

export function useRunnerAttempt(id: string) {
  return useQuery(runnerQueryOptions(id))
}

// useSetAttempt stores an attempt the server answered with. A read of the
// attempt still on its way may hold the state before the change (the phase
// just ended); storeAnswer drops it, or the page would go back a phase.
export function useSetAttempt() {
  const qc = useQueryClient()
  return (a: Attempt) => {
    storeAnswer(qc, attemptKeys.one(a.id), a)
    if (a.status !== 'in_progress') void qc.invalidateQueries({ queryKey: attemptKeys.all, refetchType: 'none' })
  }
}
