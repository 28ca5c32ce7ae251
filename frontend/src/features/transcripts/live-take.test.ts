import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeRecognition } from './fake-recognition.test-helper'
import { setLiveTranscriptionConsent } from './live-recognizer'
import { withLiveTranscript } from './live-take'

const putTranscript = vi.hoisted(() => vi.fn(async (_input: unknown) => ({})))
vi.mock('./api/put-transcript', () => ({ putTranscript }))

const last = () => FakeRecognition.last()

// A take like PhaseRecorder's: its clock excludes pauses.
class FakeTake {
  readonly recordingId = 'rec-1'
  readonly phase = 1
  durationMs = 0
  paused = false
  stopped = false
  private settle!: () => void
  readonly ended = new Promise<void>((r) => (this.settle = r))
  pause() {
    this.paused = true
  }
  resume() {
    this.paused = false
  }
  async stop() {
    this.stopped = true
    this.settle()
  }
}

beforeEach(() => {
  FakeRecognition.all = []
  putTranscript.mockClear()
  Object.defineProperty(window, 'SpeechRecognition', { value: FakeRecognition, configurable: true, writable: true })
  setLiveTranscriptionConsent(true)
})
afterEach(() => {
  Reflect.deleteProperty(window, 'SpeechRecognition')
  localStorage.clear()
})

describe('withLiveTranscript', () => {
  it('does nothing without the student’s consent', () => {
    setLiveTranscriptionConsent(false)
    const take = new FakeTake()
    const stop = take.stop
    expect(withLiveTranscript(take, 'a-1').stop).toBe(stop)
    expect(FakeRecognition.all).toHaveLength(0)
  })

  it('saves, after the take stops, the last words the browser delivers late, timed on the recording clock', async () => {
    const take = withLiveTranscript(new FakeTake(), 'a-1')
    take.durationMs = 1000
    last().hear('Buenos días, señores miembros del tribunal.')
    take.durationMs = 4000
    last().hear('gracias por su', false)
    let stopped = false
    const stopping = take.stop().then(() => (stopped = true))
    expect(take.stopped).toBe(true)
    expect(last().stopped).toBe(true)
    await Promise.resolve()
    expect(stopped).toBe(false) // the take waits for the recognizer's last words
    last().hear('Gracias por su atención.')
    last().onend?.()
    await stopping
    await vi.waitFor(() => expect(putTranscript).toHaveBeenCalledTimes(1))
    expect(putTranscript).toHaveBeenCalledWith({
      attemptId: 'a-1',
      recordingId: 'rec-1',
      source: 'browser',
      language: 'es-EC',
      segments: [
        { startMs: 1000, endMs: 1000, text: 'Buenos días, señores miembros del tribunal.' },
        { startMs: 4000, endMs: 4000, text: 'Gracias por su atención.' },
      ],
    })
  })

  it('sends the language actually used', async () => {
    const take = withLiveTranscript(new FakeTake(), 'a-1')
    last().onerror?.({ error: 'language-not-supported' })
    last().onend?.()
    last().hear('Hola.')
    const stopping = take.stop()
    last().onend?.()
    await stopping
    await vi.waitFor(() => expect(putTranscript).toHaveBeenCalledWith(expect.objectContaining({ language: 'es-ES' })))
  })

  it('pauses and resumes the recognizer with the recorder', () => {
    const take = withLiveTranscript(new FakeTake(), 'a-1')
    take.pause()
    expect(take.paused).toBe(true)
    expect(last().stopped).toBe(true)
    last().onend?.()
    expect(FakeRecognition.all).toHaveLength(1)
    take.resume()
    expect(take.paused).toBe(false)
    expect(FakeRecognition.all).toHaveLength(2)
  })

  it('saves nothing when nothing was heard', async () => {
    const take = withLiveTranscript(new FakeTake(), 'a-1')
    const stopping = take.stop()
    last().onend?.()
    await stopping
    await Promise.resolve()
    expect(putTranscript).not.toHaveBeenCalled()
  })
})
