import { useEffect, useState } from 'react'

// Microphone level, 0..1. The RMS of the AnalyserNode's time-domain samples,
// on a decibel scale: 0 at -60 dBFS or below (silence, room noise), 1 at
// 0 dBFS. Ordinary speech lands around 0.4–0.8, a quiet room below 0.2.

export const FLOOR_DB = -60

export function rmsToLevel(rms: number): number {
  if (!(rms > 0)) return 0
  const db = 20 * Math.log10(rms)
  const level = Math.min(1, Math.max(0, (db - FLOOR_DB) / -FLOOR_DB))
  return Math.round(level * 1000) / 1000
}

export interface LevelProbe {
  read(): number // current level 0..1
  release(): void
}

interface Shared {
  ctx: AudioContext
  source: MediaStreamAudioSourceNode
  analyser: AnalyserNode
  buf: Float32Array<ArrayBuffer>
  bytes: Uint8Array<ArrayBuffer>
  refs: number
}

// One AudioContext per stream, shared by the meter and the sampler (browsers
// limit how many contexts a page may open).
const shared = new WeakMap<MediaStream, Shared>()

type AudioContextCtor = new () => AudioContext

function audioContextCtor(): AudioContextCtor | undefined {
  const g = globalThis as unknown as { AudioContext?: AudioContextCtor; webkitAudioContext?: AudioContextCtor }
  return g.AudioContext ?? g.webkitAudioContext
}

// openLevelProbe reads a stream's level; null where Web Audio is missing.
export function openLevelProbe(stream: MediaStream): LevelProbe | null {
  let s = shared.get(stream)
  if (!s) {
    const Ctx = audioContextCtor()
    if (!Ctx) return null
    try {
      const ctx = new Ctx()
      const source = ctx.createMediaStreamSource(stream)
      const analyser = ctx.createAnalyser()
      analyser.fftSize = 2048
      source.connect(analyser)
      s = { ctx, source, analyser, buf: new Float32Array(analyser.fftSize), bytes: new Uint8Array(analyser.fftSize), refs: 0 }
      shared.set(stream, s)
    } catch {
      return null
    }
  }
  // A context made outside a user gesture starts suspended and reads silence.
  if (s.ctx.state === 'suspended') void s.ctx.resume?.().catch(() => undefined)
  s.refs++
  const entry = s
  let released = false
  return {
    read() {
      const { analyser, buf, bytes } = entry
      let sum = 0
      if (typeof analyser.getFloatTimeDomainData === 'function') {
        analyser.getFloatTimeDomainData(buf)
        for (let i = 0; i < buf.length; i++) sum += buf[i] * buf[i]
        return rmsToLevel(Math.sqrt(sum / buf.length))
      }
      analyser.getByteTimeDomainData(bytes) // old Safari
      for (let i = 0; i < bytes.length; i++) {
        const v = (bytes[i] - 128) / 128
        sum += v * v
      }
      return rmsToLevel(Math.sqrt(sum / bytes.length))
    },
    release() {
      if (released) return
      released = true
      if (--entry.refs > 0) return
      shared.delete(stream)
      try {
        entry.source.disconnect()
      } catch {
        // already disconnected
      }
      void entry.ctx.close?.().catch(() => undefined)
    },
  }
}

// useAudioLevel follows a stream's level on every animation frame (0 without
// a stream or without Web Audio). Peaks decay smoothly so the meter is
// readable.
export function useAudioLevel(stream: MediaStream | null | undefined): number {
  const [level, setLevel] = useState(0)
  useEffect(() => {
    if (!stream) return
    const probe = openLevelProbe(stream)
    if (!probe) return
    let raf = 0
    let shown = 0
    const frame = () => {
      const next = Math.max(probe.read(), Math.round(shown * 0.9 * 1000) / 1000)
      if (Math.abs(next - shown) >= 0.005 || (next === 0 && shown !== 0)) {
        shown = next
        setLevel(next)
      }
      raf = requestAnimationFrame(frame)
    }
    raf = requestAnimationFrame(frame)
    return () => {
      cancelAnimationFrame(raf)
      probe.release()
      setLevel(0)
    }
  }, [stream])
  return stream ? level : 0
}

export interface LevelSamplerOptions {
  intervalMs?: number
  probe?: LevelProbe | null // injected for tests; opened from the stream by default
  now?: () => number
}

// LevelSampler keeps the level every 200 ms of recorded time (the `levels`
// of the complete call, for the server's pause detection). Background tabs
// throttle timers, so each tick fills every slot that came due since the
// last one: levels.length stays ≈ recorded time / 200 ms. Paused time is not
// sampled. Without Web Audio it samples nothing (no levels is not silence).
export class LevelSampler {
  private readonly stream: MediaStream | null
  private readonly intervalMs: number
  private readonly now: () => number
  private probe: LevelProbe | null | undefined
  private samples: number[] = []
  private timer: ReturnType<typeof setInterval> | undefined
  private activeMs = 0 // recorded time before the current run
  private runStart: number | null = null

  constructor(stream: MediaStream | null, options: LevelSamplerOptions = {}) {
    this.stream = stream
    this.intervalMs = options.intervalMs ?? 200
    this.now = options.now ?? (() => performance.now())
    this.probe = options.probe
  }

  get levels(): number[] {
    return this.samples.slice()
  }

  // available is false where the level cannot be measured.
  get available(): boolean {
    return !!this.probe
  }

  start() {
    if (this.probe === undefined) this.probe = this.stream ? openLevelProbe(this.stream) : null
    if (!this.probe || this.runStart !== null) return
    this.runStart = this.now()
    this.timer = setInterval(this.sample, this.intervalMs)
  }

  pause() {
    if (this.runStart === null) return
    this.sample()
    this.activeMs += this.now() - this.runStart
    this.runStart = null
    clearInterval(this.timer)
  }

  resume() {
    this.start()
  }

  stop(): number[] {
    this.pause()
    this.probe?.release()
    this.probe = null
    return this.levels
  }

  private sample = () => {
    if (!this.probe || this.runStart === null) return
    const elapsed = this.activeMs + (this.now() - this.runStart)
    const due = Math.floor(elapsed / this.intervalMs)
    if (this.samples.length >= due) return
    const v = this.probe.read()
    while (this.samples.length < due) this.samples.push(v)
  }
}
