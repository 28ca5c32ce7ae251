import { describe, expect, it } from 'vitest'
import { seekableWebm } from './seekable-webm'

// EBML building blocks for files shaped as the recorders write them.
const UNKNOWN8 = [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff] // an 8-byte unknown size

function size(n: number, length = 1): number[] {
  const out: number[] = []
  let v = n
  for (let i = 0; i < length; i++) {
    out.unshift(v % 256)
    v = Math.floor(v / 256)
  }
  out[0] |= 0x100 >> length
  return out
}
const el = (id: number[], data: number[], sizeLength = 1) => [...id, ...size(data.length, sizeLength), ...data]
const float64 = (v: number) => {
  const b = new Uint8Array(8)
  new DataView(b.buffer).setFloat64(0, v)
  return Array.from(b)
}
const ascii = (s: string) => Array.from(new TextEncoder().encode(s))

const ebmlHeader = el([0x1a, 0x45, 0xdf, 0xa3], [...el([0x42, 0x82], ascii('webm'))])
const timecodeScale = (ns: number) => el([0x2a, 0xd7, 0xb1], [(ns >> 16) & 0xff, (ns >> 8) & 0xff, ns & 0xff])
const muxingApp = el([0x4d, 0x80], ascii('Chrome'))
const track = (type: number) => el([0xae], [...el([0xd7], [1]), ...el([0x83], [type])])
const tracks = el([0x16, 0x54, 0xae, 0x6b], track(2)) // one audio track
// Clusters of unknown size, as a live recorder writes them; the first one
// starts at 6 ms, as Firefox's do. Each holds two SimpleBlocks (track 1,
// a relative time, flags, data) marked as keyframes (0x80, as Chromium
// writes them) or not (0x00, as Firefox does).
const block = (flags: number) => el([0xa3], [0x81, 0, 0, flags, 1, 2, 3, 4])
const cluster = (timecode: number, flags = 0x80) => [
  0x1f,
  0x43,
  0xb6,
  0x75,
  ...UNKNOWN8,
  ...el([0xe7], [timecode]),
  ...block(flags),
  ...block(flags),
]
const clusters = [...cluster(6), ...cluster(100)]
const segment = (children: number[]) => [0x18, 0x53, 0x80, 0x67, ...UNKNOWN8, ...children]

const chromium = (info = [...timecodeScale(1_000_000), ...muxingApp]) =>
  new Uint8Array([...ebmlHeader, ...segment([...el([0x15, 0x49, 0xa9, 0x66], info), ...tracks, ...clusters])]).buffer
const firefox = (flags = 0x00, trackList = tracks) =>
  new Uint8Array([
    ...ebmlHeader,
    ...segment([
      ...[0x11, 0x4d, 0x9b, 0x74, 0x01, 0, 0, 0, 0, 0, 0, 0], // an empty SeekHead
      ...el([0x15, 0x49, 0xa9, 0x66], [...timecodeScale(1_000_000), ...el([0x44, 0x89], float64(0)), ...muxingApp]),
      ...trackList,
      ...cluster(6, flags),
      ...cluster(100, flags),
    ]),
  ]).buffer
const blockFlags = (buf: ArrayBuffer) => {
  const b = new Uint8Array(buf)
  const out: number[] = []
  for (let i = 0; i + 4 < b.length; i++) if (b[i] === 0xa3 && b[i + 1] === 0x88 && b[i + 2] === 0x81) out.push(b[i + 5])
  return out
}

// durationIn reads the Duration element's value (the only 0x4489 with an
// 8-byte size in these files).
function durationIn(buf: ArrayBuffer): number | null {
  const b = new Uint8Array(buf)
  for (let i = 0; i + 11 <= b.length; i++)
    if (b[i] === 0x44 && b[i + 1] === 0x89 && b[i + 2] === 0x88) return new DataView(buf, i + 3, 8).getFloat64(0)
  return null
}
const tail = (buf: ArrayBuffer, n: number) => Array.from(new Uint8Array(buf).slice(-n))

describe('seekableWebm', () => {
  it('appends a Duration to Chromium’s Info and leaves every cluster byte as it was', () => {
    const before = chromium()
    const after = seekableWebm(before, 4132)
    expect(durationIn(before)).toBeNull()
    expect(durationIn(after)).toBe(4132)
    expect(after.byteLength).toBe(before.byteLength + 11)
    expect(tail(after, tracks.length + clusters.length)).toEqual([...tracks, ...clusters])
    // Info's size grew by the 11 bytes of the new element.
    const infoAt = new Uint8Array(after).indexOf(0x15)
    expect(new Uint8Array(after)[infoAt + 4]).toBe(0x80 | (timecodeScale(1).length + muxingApp.length + 11))
  })

  it('sets Firefox’s Duration of 0 in place: same length, only those 8 bytes differ', () => {
    const before = new Uint8Array(firefox(0x80))
    const after = new Uint8Array(seekableWebm(before.buffer, 4132))
    expect(durationIn(after.buffer)).toBe(4132)
    expect(after.length).toBe(before.length)
    const changed = Array.from(after.keys()).filter((i) => after[i] !== before[i])
    expect(changed.length).toBeGreaterThan(0)
    expect(changed.length).toBeLessThanOrEqual(8)
  })

  it('marks Firefox’s audio frames as keyframes, changing only their flag bits', () => {
    const before = new Uint8Array(firefox(0x00))
    expect(blockFlags(before.buffer)).toEqual([0, 0, 0, 0])
    const after = new Uint8Array(seekableWebm(before.buffer, 4132))
    expect(blockFlags(after.buffer)).toEqual([0x80, 0x80, 0x80, 0x80])
    const changed = Array.from(after.keys()).filter((i) => after[i] !== before[i] && !(after[i] === 0x80 && before[i] === 0))
    expect(changed.length).toBeLessThanOrEqual(8) // the Duration's bytes
  })

  it('marks no frame in a file with a track that is not audio', () => {
    const withVideo = el([0x16, 0x54, 0xae, 0x6b], [...track(2), ...track(1)])
    expect(blockFlags(seekableWebm(firefox(0x00, withVideo), 4132))).toEqual([0, 0, 0, 0])
  })

  it('counts the duration in the file’s TimecodeScale', () => {
    const after = seekableWebm(chromium([...timecodeScale(1000), ...muxingApp]), 2500)
    expect(durationIn(after)).toBe(2_500_000)
  })

  it('makes Info’s size one byte longer when it no longer fits in one', () => {
    const long = [...timecodeScale(1_000_000), ...el([0x4d, 0x80], ascii('x'.repeat(110)))]
    const before = chromium(long)
    const after = seekableWebm(before, 1000)
    expect(after.byteLength).toBe(before.byteLength + 12)
    expect(durationIn(after)).toBe(1000)
    expect(tail(after, clusters.length)).toEqual(clusters)
  })

  it('grows a segment of known size by what it inserts', () => {
    const children = [...el([0x15, 0x49, 0xa9, 0x66], [...timecodeScale(1_000_000), ...muxingApp]), ...tracks, ...clusters]
    const before = new Uint8Array([...ebmlHeader, ...el([0x18, 0x53, 0x80, 0x67], children, 8)]).buffer
    const after = new Uint8Array(seekableWebm(before, 1000))
    const sizeAt = ebmlHeader.length + 4
    expect(Array.from(after.slice(sizeAt, sizeAt + 8))).toEqual(size(children.length + 11, 8))
  })

  it('leaves a file whose positions an insertion would shift as it was (it still plays)', () => {
    const seekHead = el(
      [0x11, 0x4d, 0x9b, 0x74],
      el([0x4d, 0xbb], [...el([0x53, 0xab], [0x15, 0x49, 0xa9, 0x66]), ...el([0x53, 0xac], [20])]),
    )
    const before = new Uint8Array([
      ...ebmlHeader,
      ...segment([...seekHead, ...el([0x15, 0x49, 0xa9, 0x66], [...timecodeScale(1_000_000), ...muxingApp]), ...tracks, ...clusters]),
    ]).buffer
    const after = seekableWebm(before, 1000)
    expect(durationIn(after)).toBeNull()
    expect(after.byteLength).toBe(before.byteLength)
  })

  it('returns anything else unchanged: no duration, MP4 bytes, a cut-off header', () => {
    const same = (buf: ArrayBuffer, ms: number) =>
      expect(Array.from(new Uint8Array(seekableWebm(buf, ms)))).toEqual(Array.from(new Uint8Array(buf)))
    same(chromium(), 0)
    same(new Uint8Array([0, 0, 0, 0x18, ...ascii('ftypmp42'), 0, 0, 0, 0]).buffer, 1000)
    same(chromium().slice(0, ebmlHeader.length + 6), 1000)
  })
})
