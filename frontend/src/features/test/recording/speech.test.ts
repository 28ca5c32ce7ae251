import { afterEach, describe, expect, it, vi } from 'vitest'
import { cancelSpeech, pickSpanishVoice, speak, speechSupported } from './speech'

const voice = (lang: string, name = lang, localService = true) => ({ lang, name, localService }) as SpeechSynthesisVoice

class FakeUtterance {
  lang = ''
  voice: SpeechSynthesisVoice | null = null
  rate = 1
  onend: (() => void) | null = null
  onerror: (() => void) | null = null
  constructor(readonly text: string) {}
}

function stubSynth(voices: SpeechSynthesisVoice[], { autoEnd = true } = {}) {
  const spoken: FakeUtterance[] = []
  const synth = {
    getVoices: () => voices,
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    speak: vi.fn((u: FakeUtterance) => {
      spoken.push(u)
      if (autoEnd) setTimeout(() => u.onend?.(), 0)
    }),
    cancel: vi.fn(),
  }
  vi.stubGlobal('speechSynthesis', synth)
  vi.stubGlobal('SpeechSynthesisUtterance', FakeUtterance)
  return { synth, spoken }
}

describe('speech', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })

  it('prefers es-EC, then es-ES, then any Spanish voice', () => {
    const en = voice('en-US')
    expect(pickSpanishVoice([en, voice('es-MX'), voice('es-ES'), voice('es-EC')])?.lang).toBe('es-EC')
    expect(pickSpanishVoice([en, voice('es-MX'), voice('es_ES')])?.lang).toBe('es_ES')
    expect(pickSpanishVoice([en, voice('es-US')])?.lang).toBe('es-US')
    expect(pickSpanishVoice([en, voice('eu-ES')])).toBeNull()
    expect(pickSpanishVoice([voice('es-EC', 'remote', false), voice('es-EC', 'local')])?.name).toBe('local')
  })

  it('speaks with the chosen voice and resolves when done', async () => {
    const { spoken } = stubSynth([voice('en-US'), voice('es-ES')])
    expect(speechSupported()).toBe(true)
    await speak('¿Cuál es la vía procesal?')
    expect(spoken).toHaveLength(1)
    expect(spoken[0]).toMatchObject({ text: '¿Cuál es la vía procesal?', lang: 'es-ES' })
    expect(spoken[0].voice?.lang).toBe('es-ES')
  })

  it('asks for es-EC by language when no Spanish voice is listed', async () => {
    const { spoken } = stubSynth([voice('en-US')])
    await speak('Hola')
    expect(spoken[0]).toMatchObject({ lang: 'es-EC', voice: null })
  })

  it('resolves at once without speech synthesis', async () => {
    vi.stubGlobal('speechSynthesis', undefined)
    expect(speechSupported()).toBe(false)
    await expect(speak('Hola')).resolves.toBeUndefined()
    cancelSpeech()
  })

  it('cancelSpeech resolves a pending speak', async () => {
    const { synth } = stubSynth([voice('es-EC')], { autoEnd: false })
    const p = speak('Una pregunta larga')
    await vi.waitFor(() => expect(synth.speak).toHaveBeenCalled())
    cancelSpeech()
    await expect(p).resolves.toBeUndefined()
    expect(synth.cancel).toHaveBeenCalled()
  })

  it('does not hang when the browser never says it ended', async () => {
    vi.useFakeTimers()
    stubSynth([voice('es-EC')], { autoEnd: false })
    let done = false
    void speak('Hola').then(() => (done = true))
    await vi.advanceTimersByTimeAsync(5000 + 4 * 120)
    expect(done).toBe(true)
  })
})
