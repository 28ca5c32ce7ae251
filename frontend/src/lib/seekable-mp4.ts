// Safari's recorder (WebKit's MediaRecorder) writes a fragmented MP4 whose
// header says its length is 0: the movie, its track and its media each
// carry a duration of 0, and so does the fragments' total (mehd). A player
// then learns the length only while playing (WebKitGTK first reports the
// first fragment's, about a second) and may not seek. withMp4Duration
// writes the length the recorder measured into those four fields, in place:
// no box changes size and no byte moves. A field that already holds a
// length is left as it is.

type Box = { type: string; start: number; dataStart: number; end: number }

// Boxes whose content is only other boxes, on the way to the durations.
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'mvex'])

function boxes(view: DataView, from: number, to: number): Box[] {
  const out: Box[] = []
  for (let at = from; at + 8 <= to;) {
    let size = view.getUint32(at)
    const type = String.fromCharCode(view.getUint8(at + 4), view.getUint8(at + 5), view.getUint8(at + 6), view.getUint8(at + 7))
    let header = 8
    if (size === 1) {
      if (at + 16 > to) break
      size = Number(view.getBigUint64(at + 8))
      header = 16
    } else if (size === 0) size = to - at
    if (size < header || at + size > to) break
    out.push({ type, start: at, dataStart: at + header, end: at + size })
    at += size
  }
  return out
}

// A full box's duration: after version and flags, then (version 0) two
// 32-bit times, or (version 1) two 64-bit times, and for tkhd a track ID and
// a reserved word before it; mdhd and mvhd start with the timescale.
function setDuration(view: DataView, box: Box, ticks: number) {
  const version = view.getUint8(box.dataStart)
  let at: number
  if (box.type === 'tkhd') at = box.dataStart + 4 + (version === 1 ? 16 + 8 : 8 + 8)
  else if (box.type === 'mehd') at = box.dataStart + 4
  else at = box.dataStart + 4 + (version === 1 ? 16 + 4 : 8 + 4)
  const width = version === 1 ? 8 : 4
  if (at + width > box.end) return
  if (width === 8) {
    if (view.getBigUint64(at) === 0n) view.setBigUint64(at, BigInt(ticks))
  } else if (view.getUint32(at) === 0) view.setUint32(at, Math.min(ticks, 0xffffffff))
}

function timescale(view: DataView, box: Box): number {
  const version = view.getUint8(box.dataStart)
  const at = box.dataStart + 4 + (version === 1 ? 16 : 8)
  return at + 4 <= box.end ? view.getUint32(at) : 0
}

export function withMp4Duration(input: ArrayBuffer, durationMs: number): ArrayBuffer {
  if (!(durationMs > 0)) return input
  const out = input.slice(0)
  const view = new DataView(out)
  const moov = boxes(view, 0, view.byteLength).find((b) => b.type === 'moov')
  if (!moov) return input
  const ticksIn = (scale: number) => Math.round((durationMs * scale) / 1000)
  const inMoov = boxes(view, moov.dataStart, moov.end)
  const mvhd = inMoov.find((b) => b.type === 'mvhd')
  const movieScale = mvhd ? timescale(view, mvhd) : 0
  if (!mvhd || movieScale === 0) return input
  setDuration(view, mvhd, ticksIn(movieScale))
  const visit = (list: Box[]) => {
    for (const b of list) {
      if (b.type === 'tkhd' || b.type === 'mehd') setDuration(view, b, ticksIn(movieScale))
      else if (b.type === 'mdhd') {
        const scale = timescale(view, b)
        if (scale > 0) setDuration(view, b, ticksIn(scale))
      } else if (CONTAINERS.has(b.type)) visit(boxes(view, b.dataStart, b.end))
    }
  }
  visit(inMoov)
  return out
}
