// A WebM file as MediaRecorder writes it is a live stream: no length, no
// index, and (from Firefox) no frame marked as a point to seek to. Before
// playback, seekableWebm repairs what a player needs to show the length
// and seek, without moving any of the recorder's bytes.
//
// withDuration writes the recording's length in. It changes only the
// segment's Info element and leaves every cluster as the recorder wrote it:
//
// - Firefox writes a Duration of 0: its value is set in place.
// - Chromium writes no Duration: one is appended to Info, which grows by 11
//   bytes. Nothing after Info moves relative to anything else, since these
//   files have no index (Cues) and no SeekHead entries that hold positions.
//   A file that has them is returned unchanged (it still plays; only its
//   length is unknown until played).
//
// Both recorders write the segment and each cluster with an "unknown" size
// (the EBML marker for a live stream). A parser that takes that marker for
// a length, as the fix-webm-duration package did, rewrites the first
// cluster with a size that swallows all the others; Chromium then fails to
// play Firefox's takes ("demuxer seek failed"), whose first cluster starts
// a few milliseconds after 0. This code never touches those sizes.

const EBML = 0x1a45dfa3
const SEGMENT = 0x18538067
const SEEK_HEAD = 0x114d9b74
const INFO = 0x1549a966
const TIMECODE_SCALE = 0x2ad7b1
const DURATION = 0x4489
const CLUSTER = 0x1f43b675
const CUES = 0x1c53bb6b
const TRACKS = 0x1654ae6b
const TRACK_ENTRY = 0xae
const TRACK_TYPE = 0x83
const AUDIO_TRACK = 2
const SIMPLE_BLOCK = 0xa3

type Vint = { value: number; length: number; unknown: boolean }

// readVint reads an EBML variable-length integer: an element's size (marker
// bit dropped) or, with keepMarker, its ID.
function readVint(b: Uint8Array, at: number, keepMarker = false): Vint | null {
  if (at >= b.length) return null
  const first = b[at]
  let length = 1
  while (length <= 8 && !(first & (0x100 >> length))) length++
  if (length > 8 || at + length > b.length) return null
  const mask = keepMarker ? 0xff : (0x100 >> length) - 1
  let value = first & mask
  let allOnes = (first & ((0x100 >> length) - 1)) === (0x100 >> length) - 1
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[at + i]
    allOnes &&= b[at + i] === 0xff
  }
  return { value, length, unknown: !keepMarker && allOnes }
}

type Element = { id: number; start: number; dataStart: number; size: number; unknown: boolean; sizeLength: number }

function readElement(b: Uint8Array, at: number): Element | null {
  const id = readVint(b, at, true)
  if (!id) return null
  const size = readVint(b, at + id.length)
  if (!size) return null
  const dataStart = at + id.length + size.length
  return { id: id.value, start: at, dataStart, size: size.value, unknown: size.unknown, sizeLength: size.length }
}

// sizeVint encodes a size in exactly length bytes, or returns null when it
// does not fit (the all-ones value is reserved for "unknown").
function sizeVint(size: number, length: number): Uint8Array | null {
  if (size >= 2 ** (7 * length) - 1) return null
  const out = new Uint8Array(length)
  let v = size
  for (let i = length - 1; i >= 0; i--) {
    out[i] = v % 256
    v = Math.floor(v / 256)
  }
  out[0] |= 0x100 >> length
  return out
}

function minimalSizeVint(size: number, atLeast: number): Uint8Array {
  for (let length = atLeast; length <= 8; length++) {
    const v = sizeVint(size, length)
    if (v) return v
  }
  throw new Error('size too large for EBML')
}

function readUint(b: Uint8Array, e: Element): number {
  let v = 0
  for (let i = 0; i < e.size; i++) v = v * 256 + b[e.dataStart + i]
  return v
}

// segmentOf reads the EBML header and returns the Segment that follows it,
// or null for input that is not a WebM file.
function segmentOf(b: Uint8Array): Element | null {
  const header = readElement(b, 0)
  if (!header || header.id !== EBML || header.unknown) return null
  const segment = readElement(b, header.dataStart + header.size)
  return segment?.id === SEGMENT ? segment : null
}

function withDuration(input: ArrayBuffer, durationMs: number): ArrayBuffer {
  const b = new Uint8Array(input)
  if (!(durationMs > 0)) return input
  const segment = segmentOf(b)
  if (!segment) return input
  const segmentEnd = segment.unknown ? b.length : Math.min(b.length, segment.dataStart + segment.size)

  // The segment's children up to the first cluster: Info, and whatever
  // would hold positions that an insertion would shift.
  let info: Element | null = null
  let holdsPositions = false
  for (let at = segment.dataStart; at < segmentEnd;) {
    const e = readElement(b, at)
    if (!e || e.id === CLUSTER) break
    if (e.unknown) return input
    if (e.id === INFO) info = e
    if (e.id === CUES || (e.id === SEEK_HEAD && e.size > 0)) holdsPositions = true
    at = e.dataStart + e.size
  }
  if (!info || info.dataStart + info.size > b.length) return input

  let scale = 1_000_000 // nanoseconds per tick, the default TimecodeScale
  let duration: Element | null = null
  for (let at = info.dataStart; at < info.dataStart + info.size;) {
    const e = readElement(b, at)
    if (!e || e.unknown) return input
    if (e.id === TIMECODE_SCALE) scale = readUint(b, e) || scale
    if (e.id === DURATION) duration = e
    at = e.dataStart + e.size
  }
  const ticks = (durationMs * 1_000_000) / scale

  if (duration) {
    if (duration.size !== 4 && duration.size !== 8) return input
    const out = b.slice()
    const view = new DataView(out.buffer, duration.dataStart, duration.size)
    if (duration.size === 8) view.setFloat64(0, ticks)
    else view.setFloat32(0, ticks)
    return out.buffer
  }
  if (holdsPositions) return input

  // Append Duration (ID 0x4489, size 8, a 64-bit float) to Info.
  const element = new Uint8Array(11)
  element.set([0x44, 0x89, 0x88])
  new DataView(element.buffer).setFloat64(3, ticks)
  const infoSizeAt = info.dataStart - info.sizeLength
  const infoSize = minimalSizeVint(info.size + element.length, info.sizeLength)
  const growth = element.length + infoSize.length - info.sizeLength
  let segmentSize: Uint8Array | null = null
  if (!segment.unknown) {
    segmentSize = sizeVint(segment.size + growth, segment.sizeLength)
    if (!segmentSize) return input
  }
  const infoEnd = info.dataStart + info.size
  const out = new Uint8Array(b.length + growth)
  out.set(b.subarray(0, infoSizeAt))
  if (segmentSize) out.set(segmentSize, segment.dataStart - segment.sizeLength)
  out.set(infoSize, infoSizeAt)
  out.set(b.subarray(info.dataStart, infoEnd), infoSizeAt + infoSize.length)
  out.set(element, infoSizeAt + infoSize.length + info.size)
  out.set(b.subarray(infoEnd), infoEnd + growth)
  return out.buffer
}

// markAudioKeyframes sets the keyframe flag on every SimpleBlock of a file
// whose tracks are all audio. Every Opus frame can start playback, but
// Firefox's recorder leaves the flag unset; with no index either, Chromium
// finds no point to seek to and fails to play the file at all ("demuxer
// seek failed"). Only the flag bit of each block changes, in place.
function markAudioKeyframes(b: Uint8Array): void {
  const segment = segmentOf(b)
  if (!segment) return
  let audioOnly = false
  for (let at = segment.dataStart; at < b.length;) {
    const e = readElement(b, at)
    if (!e) return
    if (e.id === TRACKS && !e.unknown) {
      audioOnly = true
      for (let t = e.dataStart; t < e.dataStart + e.size;) {
        const entry = readElement(b, t)
        if (!entry || entry.unknown) return
        if (entry.id === TRACK_ENTRY) {
          let type = 0
          for (let f = entry.dataStart; f < entry.dataStart + entry.size;) {
            const field = readElement(b, f)
            if (!field || field.unknown) return
            if (field.id === TRACK_TYPE) type = readUint(b, field)
            f = field.dataStart + field.size
          }
          audioOnly &&= type === AUDIO_TRACK
        }
        t = entry.dataStart + entry.size
      }
    }
    if (e.id === CLUSTER) {
      if (!audioOnly) return
      // A cluster's children; one of unknown size ends where the next
      // cluster begins.
      at = e.dataStart
      continue
    }
    if (e.unknown) return
    if (e.id === SIMPLE_BLOCK) {
      const track = readVint(b, e.dataStart)
      const flags = track ? e.dataStart + track.length + 2 : b.length
      if (flags < e.dataStart + e.size) b[flags] |= 0x80
    }
    at = e.dataStart + e.size
  }
}

// seekableWebm returns the recording with its length written in and its
// audio frames marked as points a player may seek to; input it does not
// recognise as such a WebM file comes back unchanged.
export function seekableWebm(input: ArrayBuffer, durationMs: number): ArrayBuffer {
  const withLength = withDuration(input, durationMs)
  const out = withLength === input ? new Uint8Array(input.slice(0)) : new Uint8Array(withLength)
  markAudioKeyframes(out)
  return out.buffer
}
