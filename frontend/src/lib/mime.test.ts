import { afterEach, describe, expect, it, vi } from 'vitest'
import { fileExtension, isWebm, pickMimeType } from './mime'

function stubRecorder(supported: string[] | null) {
  if (supported === null) {
    vi.stubGlobal('MediaRecorder', undefined)
    return
  }
  vi.stubGlobal('MediaRecorder', { isTypeSupported: (t: string) => supported.includes(t) })
}

describe('pickMimeType', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('returns null without MediaRecorder', () => {
    stubRecorder(null)
    expect(pickMimeType()).toBeNull()
  })

  it('prefers WebM/Opus (Chrome, Edge, Firefox)', () => {
    stubRecorder(['audio/webm', 'audio/webm;codecs=opus', 'audio/mp4'])
    expect(pickMimeType()).toBe('audio/webm;codecs=opus')
  })

  it('takes plain WebM when Opus is not named', () => {
    stubRecorder(['audio/webm', 'audio/mp4'])
    expect(pickMimeType()).toBe('audio/webm')
  })

  it('falls back to MP4/AAC (Safari)', () => {
    stubRecorder(['audio/mp4;codecs=mp4a.40.2', 'audio/mp4'])
    expect(pickMimeType()).toBe('audio/mp4;codecs=mp4a.40.2')
    stubRecorder(['audio/mp4'])
    expect(pickMimeType()).toBe('audio/mp4')
  })

  it('takes Ogg/Opus where that is all there is', () => {
    stubRecorder(['audio/ogg;codecs=opus', 'audio/ogg'])
    expect(pickMimeType()).toBe('audio/ogg;codecs=opus')
    stubRecorder(['audio/ogg'])
    expect(pickMimeType()).toBe('audio/ogg')
  })

  it("returns '' (browser default) when nothing matches", () => {
    stubRecorder([])
    expect(pickMimeType()).toBe('')
  })
})

describe('mime helpers', () => {
  it('recognizes WebM and picks file extensions', () => {
    expect(isWebm('audio/webm;codecs=opus')).toBe(true)
    expect(isWebm('audio/mp4')).toBe(false)
    expect(fileExtension('audio/webm;codecs=opus')).toBe('webm')
    expect(fileExtension('audio/mp4;codecs=mp4a.40.2')).toBe('m4a')
  })
})
