import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AUDIO_CONSTRAINTS, checkDevice, releaseStream } from './device'

const fakeStream = { getTracks: () => [] } as unknown as MediaStream

function domError(name: string) {
  return Object.assign(new Error(name), { name })
}

function setup({
  secure = true,
  recorder = true,
  getUserMedia,
}: {
  secure?: boolean
  recorder?: boolean
  getUserMedia?: (c: MediaStreamConstraints) => Promise<MediaStream>
}) {
  vi.stubGlobal('isSecureContext', secure)
  vi.stubGlobal('MediaRecorder', recorder ? { isTypeSupported: (t: string) => t === 'audio/webm;codecs=opus' } : undefined)
  const mediaDevices = getUserMedia ? { getUserMedia: vi.fn(getUserMedia) } : undefined
  Object.defineProperty(navigator, 'mediaDevices', { value: mediaDevices, configurable: true })
  return mediaDevices
}

describe('checkDevice', () => {
  beforeEach(() => vi.unstubAllGlobals())
  afterEach(() => {
    vi.unstubAllGlobals()
    Object.defineProperty(navigator, 'mediaDevices', { value: undefined, configurable: true })
  })

  it('asks for the microphone with echo cancellation and noise suppression', async () => {
    const md = setup({ getUserMedia: async () => fakeStream })
    await expect(checkDevice()).resolves.toEqual({ ok: true, stream: fakeStream })
    expect(md!.getUserMedia).toHaveBeenCalledWith({ audio: { echoCancellation: true, noiseSuppression: true } })
    expect(AUDIO_CONSTRAINTS).toEqual({ echoCancellation: true, noiseSuppression: true })
  })

  it('refuses an insecure page before anything else', async () => {
    const md = setup({ secure: false, getUserMedia: async () => fakeStream })
    const r = await checkDevice()
    expect(r).toEqual({ ok: false, reason: 'insecure', message: 'El micrófono solo funciona en una conexión segura (https).' })
    expect(md!.getUserMedia).not.toHaveBeenCalled()
  })

  it('names the supported browsers when MediaRecorder or getUserMedia is missing', async () => {
    setup({ recorder: false, getUserMedia: async () => fakeStream })
    let r = await checkDevice()
    expect(r).toMatchObject({ ok: false, reason: 'unsupported' })
    if (!r.ok) expect(r.message).toMatch(/Chrome, Edge, Firefox o Safari/)

    setup({})
    r = await checkDevice()
    expect(r).toMatchObject({ ok: false, reason: 'unsupported' })
  })

  it.each([
    ['NotAllowedError', 'denied', /Permitir/],
    ['NotFoundError', 'no-device', /No se encontró ningún micrófono/],
    ['NotReadableError', 'busy', /ocupado por otra aplicación/],
    ['TypeError', 'error', /No se pudo acceder al micrófono/],
  ])('explains %s', async (name, reason, message) => {
    setup({ getUserMedia: () => Promise.reject(domError(name)) })
    const r = await checkDevice()
    expect(r).toMatchObject({ ok: false, reason })
    if (!r.ok) expect(r.message).toMatch(message)
  })

  it('retries without processing constraints on OverconstrainedError', async () => {
    const md = setup({
      getUserMedia: (c) => (typeof c.audio === 'object' ? Promise.reject(domError('OverconstrainedError')) : Promise.resolve(fakeStream)),
    })
    await expect(checkDevice()).resolves.toEqual({ ok: true, stream: fakeStream })
    expect(md!.getUserMedia).toHaveBeenLastCalledWith({ audio: true })
  })

  it('releaseStream stops every track', () => {
    const stop = vi.fn()
    releaseStream({ getTracks: () => [{ stop }, { stop }] } as unknown as MediaStream)
    expect(stop).toHaveBeenCalledTimes(2)
    releaseStream(null)
  })
})
