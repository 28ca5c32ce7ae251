// Reads the tribunal's questions aloud where the browser can. Prefers an
// Ecuadorian Spanish voice, then Spain's, then any Spanish one.

export function speechSupported(): boolean {
  return typeof window !== 'undefined' && !!window.speechSynthesis && typeof SpeechSynthesisUtterance !== 'undefined'
}

const normLang = (lang: string) => lang.replace('_', '-').toLowerCase()

export function pickSpanishVoice(voices: readonly SpeechSynthesisVoice[]): SpeechSynthesisVoice | null {
  const by = (test: (lang: string) => boolean) => {
    const matching = voices.filter((v) => test(normLang(v.lang)))
    // A local voice works offline and starts at once.
    return matching.find((v) => v.localService) ?? matching[0]
  }
  return by((l) => l === 'es-ec') ?? by((l) => l === 'es-es') ?? by((l) => l === 'es' || l.startsWith('es-')) ?? null
}

// Chrome loads its voices asynchronously: the first getVoices() is often empty.
function loadVoices(timeoutMs = 1500): Promise<SpeechSynthesisVoice[]> {
  const synth = window.speechSynthesis
  const now = synth.getVoices()
  if (now.length > 0) return Promise.resolve(now)
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      synth.removeEventListener?.('voiceschanged', done)
      resolve(synth.getVoices())
    }
    const timer = setTimeout(done, timeoutMs)
    synth.addEventListener?.('voiceschanged', done)
  })
}

const pending = new Set<() => void>()

export interface SpeakOptions {
  rate?: number
}

// speak reads text aloud and resolves when it is done (or failed, or was
// cancelled). It resolves at once where speech synthesis is missing, so a
// page can always `await speak(question)` before the think time.
export async function speak(text: string, { rate = 1 }: SpeakOptions = {}): Promise<void> {
  if (!speechSupported() || !text.trim()) return
  const synth = window.speechSynthesis
  const voice = pickSpanishVoice(await loadVoices())
  cancelSpeech() // one voice at a time
  const u = new SpeechSynthesisUtterance(text)
  u.lang = voice ? voice.lang.replace('_', '-') : 'es-EC'
  if (voice) u.voice = voice
  u.rate = rate
  await new Promise<void>((resolve) => {
    const finish = () => {
      clearTimeout(timer)
      pending.delete(finish)
      resolve()
    }
    // Some browsers never fire `end` (e.g. Chrome in a hidden tab).
    const timer = setTimeout(finish, 5000 + text.length * 120)
    pending.add(finish)
    u.onend = finish
    u.onerror = finish
    synth.speak(u)
  })
}

// cancelSpeech stops reading; pending speak() calls resolve.
export function cancelSpeech() {
  if (speechSupported()) window.speechSynthesis.cancel()
  for (const finish of [...pending]) finish()
}
