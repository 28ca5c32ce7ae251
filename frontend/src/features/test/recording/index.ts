// The browser recording engine of the simulator (/test). See README.md.
export { pickMimeType, isWebm, fileExtension, MIME_CANDIDATES } from './mime'
export { checkDevice, releaseStream, deviceMessages, AUDIO_CONSTRAINTS } from './device'
export type { DeviceCheck, DeviceProblem } from './device'
export { useAudioLevel, LevelSampler, openLevelProbe, rmsToLevel } from './level'
export type { LevelProbe, LevelSamplerOptions } from './level'
export { LevelMeter } from './LevelMeter'
export { UploadStatusLine, uploadStatusText } from './UploadStatusLine'
export type { UploadTone } from './UploadStatusLine'
export { UploadQueue, UploadStoppedError, getUploadQueue, useUploadStatus, sha256Hex } from './uploader'
export type { UploadStatus, UploadError, UploadErrorKind, UploadQueueOptions } from './uploader'
export {
  PhaseRecorder,
  RecorderError,
  resumePendingUploads,
  DEFAULT_TIMESLICE_MS,
  DEFAULT_AUDIO_BITS_PER_SECOND,
  MAX_CHUNK_BYTES,
} from './recorder'
export type { PhaseRecorderOptions, PhaseRecordingResult, PhaseRecorderState, ResumeResult, RecorderErrorKind } from './recorder'
export { speak, cancelSpeech, speechSupported, pickSpanishVoice } from './speech'
export { storageAvailable, pendingAttemptIds, deleteAttemptData } from './store'
export type { Recording } from './types'
