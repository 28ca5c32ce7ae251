import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeRecognition } from './fake-recognition.test-helper'
import { NETWORK_RETRY_LIMIT, STOP_TIMEOUT_MS, startLiveTranscription, type LiveSession } from './live-recognizer'

const last = () => FakeRecognition.last()

let t = 0
const now = () => t
const start = (clock?: () => number): LiveSession => {
  const s = startLiveTranscription({ now, clock })
  if (!s) throw new Error('no session')
  return s
}

beforeEach(() => {
  FakeRecognition.all = []
  t = 1000
  Object.defineProperty(window, 'SpeechRecognition', { value: FakeRecognition, configurable: true, writable: true })
})
afterEach(() => {
  Reflect.deleteProperty(window, 'SpeechRecognition')
  vi.useRealTimers()
})

describe('startLiveTranscription', () => {
  it('returns null without a recognizer', () => {
    Reflect.deleteProperty(window, 'SpeechRecognition')
    expect(startLiveTranscription()).toBeNull()
  })

  it('listens continuously in es-EC, with interim results', () => {
    start()
    expect(FakeRecognition.all).toHaveLength(1)
    expect(last()).toMatchObject({ lang: 'es-EC', continuous: true, interimResults: true, started: true })
  })

  it('falls back to es-ES when es-EC is not supported, and reports the language used', async () => {
    const s = start()
    last().fail('language-not-supported')
    last().end()
    expect(FakeRecognition.all).toHaveLength(2)
    expect(last().lang).toBe('es-ES')
    last().hear('Buenos días')
    const done = s.stop()
    last().end()
    expect(await done).toEqual({ language: 'es-ES', segments: [{ startMs: 0, endMs: 0, text: 'Buenos días' }] })
  })

  it('gives up when es-ES is not supported either', async () => {
    const s = start()
    last().fail('language-not-supported')
    last().end()
    last().fail('language-not-supported')
    last().end()
    expect(FakeRecognition.all).toHaveLength(2)
    expect(await s.stop()).toEqual({ language: 'es-EC', segments: [] })
  })

  it('times a segment from its first interim result to its final one', async () => {
    const s = start()
    t = 1500
    last().hear('buenos', false)
    t = 2200
    last().hear('buenos días señores', false)
    t = 3000
    last().hear(' Buenos días, señores. ')
    t = 4000
    last().hear('Procede la acción.') // no interim: a point in time
    const done = s.stop()
    last().end()
    expect((await done).segments).toEqual([
      { startMs: 500, endMs: 2000, text: 'Buenos días, señores.' },
      { startMs: 3000, endMs: 3000, text: 'Procede la acción.' },
    ])
  })

  it('restarts when the browser ends the session after a silence, keeping what it heard', async () => {
    const s = start()
    t = 2000
    last().hear('Primera parte.')
    last().fail('no-speech')
    last().end()
    expect(FakeRecognition.all).toHaveLength(2)
    expect(last()).toMatchObject({ lang: 'es-EC', started: true })
    t = 5000
    last().hear('Segunda parte.')
    const done = s.stop()
    last().end()
    expect((await done).segments.map((x) => x.text)).toEqual(['Primera parte.', 'Segunda parte.'])
  })

  it('keeps the final result the browser delivers after stop()', async () => {
    const s = start()
    t = 9000
    last().hear('gracias por su', false)
    let result: Awaited<ReturnType<LiveSession['stop']>> | null = null
    void s.stop().then((r) => (result = r))
    expect(last().stopped).toBe(true)
    await Promise.resolve()
    expect(result).toBeNull() // still waiting for the last words
    t = 9400
    last().hear('Gracias por su atención.')
    last().end()
    await vi.waitFor(() => expect(result).not.toBeNull())
    expect(result!.segments).toEqual([{ startMs: 8000, endMs: 8000, text: 'Gracias por su atención.' }])
    expect(FakeRecognition.all).toHaveLength(1) // no restart after stop
  })

  it('gives up waiting after a timeout, keeping the unfinished utterance and ignoring later results', async () => {
    vi.useFakeTimers()
    const s = start()
    t = 3000
    last().hear('muchas gracias', false)
    const done = s.stop()
    await vi.advanceTimersByTimeAsync(STOP_TIMEOUT_MS)
    const r = await done
    expect(r.segments).toEqual([{ startMs: 2000, endMs: 2000, text: 'muchas gracias' }])
    expect(last().aborted).toBe(true)
    last().hear('tarde')
    last().end()
    expect(FakeRecognition.all).toHaveLength(1)
    expect(await s.stop()).toBe(r)
  })

  it('stops listening while paused and leaves paused time out of the timestamps', async () => {
    const s = start()
    t = 3000 // 2 s recorded
    s.pause()
    expect(last().stopped).toBe(true)
    t = 3300
    last().hear('Antes de la pausa.') // the browser finishes the utterance before the pause
    last().end()
    t = 20_000
    expect(FakeRecognition.all).toHaveLength(1) // nothing listens during the pause
    s.resume()
    expect(FakeRecognition.all).toHaveLength(2)
    t = 20_500
    last().hear('después', false)
    t = 21_000
    last().hear('Después de la pausa.')
    const done = s.stop()
    last().end()
    expect((await done).segments).toEqual([
      { startMs: 2000, endMs: 2000, text: 'Antes de la pausa.' },
      { startMs: 2500, endMs: 3000, text: 'Después de la pausa.' },
    ])
  })

  it('resumed before the paused session ended, it restarts from that session end', () => {
    const s = start()
    s.pause()
    s.resume()
    expect(FakeRecognition.all).toHaveLength(1)
    last().end()
    expect(FakeRecognition.all).toHaveLength(2)
  })

  it('reads times from the recording clock when given one', async () => {
    let recorded = 0
    const s = start(() => recorded)
    recorded = 700
    last().hear('hola', false)
    recorded = 1200
    last().hear('Hola.')
    const done = s.stop()
    last().end()
    expect((await done).segments).toEqual([{ startMs: 700, endMs: 1200, text: 'Hola.' }])
  })

  it('restarts with a growing delay after network errors, then gives up keeping the transcript', async () => {
    vi.useFakeTimers()
    const s = start()
    last().hear('Lo dicho antes del corte.')
    let delay = 1000
    for (let i = 0; i < NETWORK_RETRY_LIMIT; i++) {
      const n = FakeRecognition.all.length
      last().fail('network')
      last().end()
      expect(FakeRecognition.all).toHaveLength(n) // not at once
      await vi.advanceTimersByTimeAsync(delay - 1)
      expect(FakeRecognition.all).toHaveLength(n)
      await vi.advanceTimersByTimeAsync(1)
      expect(FakeRecognition.all).toHaveLength(n + 1)
      delay = Math.min(delay * 2, 30_000)
    }
    last().fail('network')
    last().end()
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(FakeRecognition.all).toHaveLength(NETWORK_RETRY_LIMIT + 1) // gave up
    expect((await s.stop()).segments.map((x) => x.text)).toEqual(['Lo dicho antes del corte.'])
  })

  it('counts network failures afresh once recognition works again', async () => {
    vi.useFakeTimers()
    start()
    last().fail('network')
    last().end()
    await vi.advanceTimersByTimeAsync(1000)
    last().fail('network')
    last().end()
    await vi.advanceTimersByTimeAsync(2000)
    last().hear('Volvió la conexión.')
    last().fail('network')
    last().end()
    const n = FakeRecognition.all.length
    await vi.advanceTimersByTimeAsync(1000)
    expect(FakeRecognition.all).toHaveLength(n + 1)
  })

  it('stops at once while waiting to restart, and cancels the restart', async () => {
    vi.useFakeTimers()
    const s = start()
    last().fail('network')
    last().end()
    const r = await s.stop()
    expect(r.segments).toEqual([])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(FakeRecognition.all).toHaveLength(1)
  })
})
