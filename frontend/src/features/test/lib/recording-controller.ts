// RecordingController keeps the page's recorder in step with the phase the
// attempt is in. The page says what it wants ("record phase 3", "paused",
// "nothing") and the controller gets there one step at a time: it stops the
// take of a phase that is over before starting the next phase's, never runs
// two at once, and never starts a take while paused. After a reload the
// current phase simply gets a new take (a new part of the same phase).

export interface Take {
  readonly phase: number
  pause(): void
  resume(): void
  stop(): Promise<unknown>
  readonly ended: Promise<unknown>
}

export type StartTake = (phase: number) => Promise<Take>

export type Desired = { phase: number | null; paused: boolean }

export type ControllerState = {
  phase: number | null // phase being recorded
  paused: boolean
  starting: boolean
  error: string | null // why the desired phase is not being recorded
}

const interruptedMessage = 'La grabación se interrumpió (¿se desconectó el micrófono?). Lo grabado hasta ahora se conservó.'

export class RecordingController {
  private readonly startTake: StartTake
  private desired: Desired = { phase: null, paused: false }
  private take: Take | null = null
  private failedPhase: number | null = null
  private running: Promise<void> | null = null
  private state: ControllerState = { phase: null, paused: false, starting: false, error: null }
  private readonly listeners = new Set<() => void>()
  private disposed = false

  constructor(startTake: StartTake) {
    this.startTake = startTake
  }

  getState = () => this.state

  subscribe = (l: () => void) => {
    this.listeners.add(l)
    return () => this.listeners.delete(l)
  }

  private patch(p: Partial<ControllerState>) {
    const next = { ...this.state, ...p }
    if ((Object.keys(p) as (keyof ControllerState)[]).every((k) => Object.is(next[k], this.state[k]))) return
    this.state = next
    for (const l of this.listeners) l()
  }

  // set asks for a state; it resolves once the controller got there (or to
  // a later wish).
  set(d: Desired): Promise<void> {
    if (this.disposed) return Promise.resolve()
    if (d.phase !== this.desired.phase && this.failedPhase !== null && this.failedPhase !== d.phase) {
      this.failedPhase = null
      this.patch({ error: null })
    }
    this.desired = d
    return this.run()
  }

  // retry tries again to record the phase that failed to start.
  retry(): Promise<void> {
    this.failedPhase = null
    this.patch({ error: null })
    return this.run()
  }

  // dispose stops the take (leaving the page) and ignores later wishes.
  dispose(): Promise<void> {
    const done = this.set({ phase: null, paused: false })
    this.disposed = true
    return done
  }

  private run(): Promise<void> {
    this.running ??= this.loop().finally(() => {
      this.running = null
    })
    return this.running
  }

  private async loop() {
    for (;;) {
      const d = this.desired
      const take = this.take
      if (take && take.phase !== d.phase) {
        this.take = null
        this.patch({ phase: null, paused: false })
        try {
          await take.stop()
        } catch {
          // the recorder reported it; what it stored is kept
        }
        continue
      }
      if (!take && d.phase !== null && !d.paused && this.failedPhase !== d.phase) {
        this.patch({ starting: true })
        try {
          const t = await this.startTake(d.phase)
          this.take = t
          this.patch({ phase: t.phase, paused: false, starting: false, error: null })
          void t.ended.then(
            (r) => this.lost(t, r),
            () => this.lost(t),
          )
        } catch (e) {
          this.failedPhase = d.phase
          this.patch({ starting: false, error: e instanceof Error && e.message ? e.message : 'No se pudo iniciar la grabación.' })
        }
        continue
      }
      if (take) {
        if (d.paused) take.pause()
        else take.resume()
        this.patch({ paused: d.paused })
      }
      if (this.desired === d) return
    }
  }

  // lost: a take ended without being asked to (microphone gone, or the
  // recorder had to stop it and says why).
  private lost(t: Take, result?: unknown) {
    if (this.take !== t) return
    this.take = null
    this.failedPhase = t.phase
    const reason = (result as { stopReason?: unknown } | undefined)?.stopReason
    this.patch({ phase: null, paused: false, error: typeof reason === 'string' && reason ? reason : interruptedMessage })
  }
}
