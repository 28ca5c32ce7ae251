import { describe, expect, it } from 'vitest'
import { RecordingController, type Take } from './recording-controller'

function fakeTakes() {
  const log: string[] = []
  const takes: (Take & { end: () => void })[] = []
  let n = 0
  const start = async (phase: number) => {
    const k = ++n
    log.push(`start ${phase}#${k}`)
    let end!: () => void
    const ended = new Promise<void>((r) => (end = r))
    const t = {
      phase,
      pause: () => log.push(`pause ${phase}#${k}`),
      resume: () => log.push(`resume ${phase}#${k}`),
      stop: async () => {
        log.push(`stop ${phase}#${k}`)
        end()
      },
      ended,
      end,
    }
    takes.push(t)
    return t
  }
  return { log, takes, start }
}

describe('RecordingController', () => {
  it('stops the previous phase before starting the next, one take at a time', async () => {
    const { log, start } = fakeTakes()
    const c = new RecordingController(start)
    await c.set({ phase: 1, paused: false })
    expect(c.getState()).toMatchObject({ phase: 1, error: null })
    // Wishes arriving quickly collapse into the last one.
    void c.set({ phase: null, paused: false })
    await c.set({ phase: 3, paused: false })
    expect(log.filter((l) => !l.startsWith('resume'))).toEqual(['start 1#1', 'stop 1#1', 'start 3#2'])
    await c.set({ phase: 3, paused: false })
    expect(log.filter((l) => l.startsWith('start'))).toHaveLength(2)
  })

  it('pauses and resumes the take, and does not start one while paused', async () => {
    const { log, start } = fakeTakes()
    const c = new RecordingController(start)
    await c.set({ phase: 1, paused: true })
    expect(log).toEqual([])
    await c.set({ phase: 1, paused: false })
    await c.set({ phase: 1, paused: true })
    expect(c.getState().paused).toBe(true)
    await c.set({ phase: 1, paused: false })
    expect(log).toEqual(['start 1#1', 'resume 1#1', 'pause 1#1', 'resume 1#1'])
  })

  it('reports a failed start once and retries on demand', async () => {
    let fail = true
    const { start } = fakeTakes()
    const c = new RecordingController(async (p) => {
      if (fail) throw new Error('Sin micrófono')
      return start(p)
    })
    await c.set({ phase: 2, paused: false })
    expect(c.getState()).toMatchObject({ phase: null, error: 'Sin micrófono' })
    await c.set({ phase: 2, paused: false }) // no loop of failures
    fail = false
    await c.retry()
    expect(c.getState()).toMatchObject({ phase: 2, error: null })
  })

  it('notices a take that ended by itself and starts a new part on retry', async () => {
    const { takes, start, log } = fakeTakes()
    const c = new RecordingController(start)
    await c.set({ phase: 1, paused: false })
    takes[0].end()
    await Promise.resolve()
    await Promise.resolve()
    expect(c.getState().phase).toBeNull()
    expect(c.getState().error).toMatch(/interrumpió/)
    await c.retry()
    expect(log.filter((l) => l.startsWith('start'))).toEqual(['start 1#1', 'start 1#2'])
  })

  it('stops on dispose and ignores later wishes', async () => {
    const { log, start } = fakeTakes()
    const c = new RecordingController(start)
    await c.set({ phase: 1, paused: false })
    await c.dispose()
    await c.set({ phase: 1, paused: false })
    expect(log.filter((l) => !l.startsWith('resume'))).toEqual(['start 1#1', 'stop 1#1'])
  })
})
