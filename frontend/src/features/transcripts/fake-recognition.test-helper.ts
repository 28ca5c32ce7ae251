// A stand-in for the browser's SpeechRecognition, driven by unit tests.
export class FakeRecognition {
  static all: FakeRecognition[] = []
  static last() {
    return FakeRecognition.all[FakeRecognition.all.length - 1]
  }
  lang = ''
  continuous = false
  interimResults = false
  onresult: ((e: unknown) => void) | null = null
  onerror: ((e: { error: string }) => void) | null = null
  onend: (() => void) | null = null
  started = false
  stopped = false
  aborted = false
  constructor() {
    FakeRecognition.all.push(this)
  }
  start() {
    this.started = true
  }
  stop() {
    this.stopped = true
  }
  abort() {
    this.aborted = true
  }
  hear(text: string, isFinal = true) {
    this.onresult?.({ resultIndex: 0, results: [Object.assign([{ transcript: text }], { isFinal })] })
  }
  fail(error: string) {
    this.onerror?.({ error })
  }
  end() {
    this.onend?.()
  }
}
