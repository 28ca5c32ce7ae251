// Which container/codec MediaRecorder should use. Chrome, Edge and Firefox
// record WebM/Opus; Safari (every browser on an iPhone) records MP4/AAC;
// Ogg/Opus is for a browser that offers nothing else. The server accepts
// each of them (backend/internal/domain/audio.go).

export const MIME_CANDIDATES = [
  'audio/webm;codecs=opus',
  'audio/webm',
  'audio/mp4;codecs=mp4a.40.2',
  'audio/mp4',
  'audio/ogg;codecs=opus',
  'audio/ogg',
] as const

// pickMimeType returns the first candidate the browser can record, '' when
// MediaRecorder exists but supports none of them (the browser then picks its
// own default), and null when there is no MediaRecorder at all.
export function pickMimeType(): string | null {
  if (typeof MediaRecorder === 'undefined') return null
  if (typeof MediaRecorder.isTypeSupported !== 'function') return ''
  for (const type of MIME_CANDIDATES) {
    try {
      if (MediaRecorder.isTypeSupported(type)) return type
    } catch {
      // Some old implementations throw on unknown types; try the next one.
    }
  }
  return ''
}

// isWebm tells whether a MIME type is a WebM container (its duration must be
// written in before playback, see RecordingPlayer).
export const isWebm = (mimeType: string) =>
  mimeType.toLowerCase().startsWith('audio/webm') || mimeType.toLowerCase().startsWith('video/webm')

// isMp4 tells whether a MIME type is an MP4 container (Safari's takes: their
// length is written in before playback, see RecordingPlayer).
export const isMp4 = (mimeType: string) => /^(audio|video)\/mp4/i.test(mimeType)

// fileExtension is the extension for a downloaded recording.
export function fileExtension(mimeType: string): string {
  const t = mimeType.toLowerCase()
  if (t.includes('webm')) return 'webm'
  if (t.includes('mp4') || t.includes('aac')) return 'm4a'
  if (t.includes('ogg')) return 'ogg'
  return 'bin'
}
