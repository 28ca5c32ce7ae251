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

// mvhd, tkhd, mdhd and mehd are full boxes: a version byte and three flag
// bytes come first. Version 1 writes its times and durations in 64 bits,
// version 0 in 32.
const isWide = (view: DataView, box: Box) => view.getUint8(box.dataStart) === 1

// afterTimes is where mvhd, tkhd and mdhd go on after their creation and
// modification times.
const afterTimes = (view: DataView, box: Box) => box.dataStart + 4 + (isWide(view, box) ? 16 : 8)

// The duration follows the timescale in mvhd and mdhd, a track ID and a
// reserved word in tkhd, and comes first in mehd.
function setDuration(view: DataView, box: Box, ticks: number) {
  const at = box.type === 'mehd' ? box.dataStart + 4 : afterTimes(view, box) + (box.type === 'tkhd' ? 8 : 4)
  const width = isWide(view, box) ? 8 : 4
  if (at + width > box.end) return
  if (width === 8) {
    if (view.getBigUint64(at) === 0n) view.setBigUint64(at, BigInt(ticks))
  } else if (view.getUint32(at) === 0) view.setUint32(at, Math.min(ticks, 0xffffffff))
}

function timescale(view: DataView, box: Box): number {
  const at = afterTimes(view, box)
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
