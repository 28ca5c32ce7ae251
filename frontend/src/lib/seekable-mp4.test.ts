import { describe, expect, it } from 'vitest'
import { withMp4Duration } from './seekable-mp4'

// Boxes shaped as WebKit's recorder writes them: a fragmented MP4 whose
// movie (timescale 1800), track and media (timescale 44100) durations and
// whose fragments' total (mehd, version 1) are all 0.
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]
const u64 = (n: number) => [...u32(Math.floor(n / 2 ** 32)), ...u32(n >>> 0)]
const box = (type: string, data: number[]) => [...u32(8 + data.length), ...Array.from(type, (c) => c.charCodeAt(0)), ...data]
const full = (type: string, version: number, data: number[]) => box(type, [version, 0, 0, 0, ...data])

const mvhd = (version: number, duration: number) =>
  version === 1
    ? full('mvhd', 1, [...u64(0), ...u64(0), ...u32(1800), ...u64(duration), ...Array(80).fill(0)])
    : full('mvhd', 0, [...u32(0), ...u32(0), ...u32(1800), ...u32(duration), ...Array(80).fill(0)])
const tkhd = (duration: number) => full('tkhd', 0, [...u32(0), ...u32(0), ...u32(1), ...u32(0), ...u32(duration), ...Array(60).fill(0)])
const mdhd = (duration: number) => full('mdhd', 0, [...u32(0), ...u32(0), ...u32(44100), ...u32(duration), 0x55, 0xc4, 0, 0])
const mehd = (duration: number) => full('mehd', 1, u64(duration))
const fragments = [...box('moof', Array(16).fill(7)), ...box('mdat', Array(32).fill(9))]

const take = ({ movie = 0, track = 0, media = 0, fragmentsTotal = 0, version = 0 } = {}) =>
  new Uint8Array([
    ...box(
      'ftyp',
      Array.from('isom', (c) => c.charCodeAt(0)),
    ),
    ...box('moov', [
      ...mvhd(version, movie),
      ...box('trak', [...tkhd(track), ...box('mdia', [...mdhd(media), ...box('hdlr', Array(20).fill(0))])]),
      ...box('mvex', [...mehd(fragmentsTotal), ...full('trex', 0, Array(20).fill(0))]),
    ]),
    ...fragments,
  ]).buffer

// durations reads the four fields back, each from its box's offset.
function durations(buf: ArrayBuffer) {
  const b = new Uint8Array(buf)
  const view = new DataView(buf)
  const at = (type: string) => {
    for (let i = 4; i + 4 <= b.length; i++) if (String.fromCharCode(...b.slice(i, i + 4)) === type) return i - 4
    throw new Error(`no ${type}`)
  }
  const mv = at('mvhd')
  const movie = b[mv + 8] === 1 ? Number(view.getBigUint64(mv + 8 + 24)) : view.getUint32(mv + 8 + 16)
  return {
    movie,
    track: view.getUint32(at('tkhd') + 8 + 20),
    media: view.getUint32(at('mdhd') + 8 + 16),
    fragmentsTotal: Number(view.getBigUint64(at('mehd') + 8 + 4)),
  }
}

describe('withMp4Duration', () => {
  it('writes the length into the movie, track, media and fragments, in their timescales, moving no byte', () => {
    const before = take()
    const after = withMp4Duration(before, 4132)
    expect(after.byteLength).toBe(before.byteLength)
    expect(durations(after)).toEqual({ movie: 7438, track: 7438, media: 182221, fragmentsTotal: 7438 })
    const a = new Uint8Array(after)
    const b = new Uint8Array(before)
    expect(Array.from(a.slice(-fragments.length))).toEqual(Array.from(b.slice(-fragments.length)))
    // Only the four fields changed: at most 4 + 4 + 4 + 8 bytes.
    expect(Array.from(a.keys()).filter((i) => a[i] !== b[i]).length).toBeLessThanOrEqual(20)
  })

  it('reads a version 1 movie header (64-bit times)', () => {
    expect(durations(withMp4Duration(take({ version: 1 }), 1000)).movie).toBe(1800)
  })

  it('keeps a length a field already holds', () => {
    expect(durations(withMp4Duration(take({ movie: 99, media: 5 }), 4132))).toEqual({
      movie: 99,
      track: 7438,
      media: 5,
      fragmentsTotal: 7438,
    })
  })

  it('returns anything else unchanged: no duration, no moov, WebM bytes, a cut-off box', () => {
    const same = (buf: ArrayBuffer, ms: number) =>
      expect(Array.from(new Uint8Array(withMp4Duration(buf, ms)))).toEqual(Array.from(new Uint8Array(buf)))
    same(take(), 0)
    same(new Uint8Array(box('ftyp', [1, 2, 3, 4])).buffer, 1000)
    same(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x80, 0, 0, 0, 0]).buffer, 1000)
    same(take().slice(0, 60), 1000)
  })
})
