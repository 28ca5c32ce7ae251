// Transcripts and automatic evidence (docs/api-simulator.md, "Feedback").

export type Segment = { startMs: number; endMs: number; text: string }

export type TranscriptSource = 'browser' | 'server' | 'edited'

export type Transcript = {
  source: TranscriptSource
  language: string
  segments: Segment[]
  text: string
  updatedAt: string
  updatedBy: string
}

export type Citation = { norm: string; article: number }

export type Report = {
  words: number
  wordsPerMinute: number
  paceBand: '' | 'lento' | 'adecuado' | 'rápido'
  citations: Citation[]
  unattributed: number[]
  greeting: boolean
  closing: boolean
  structureMarkers: string[]
  fillers: Record<string, number>
  fillersPerMinute: number
  keyPointsCovered: number[]
  bases?: { matched: Citation[]; missing: Citation[]; unexpected: Citation[]; probable: Citation[] }
}

export type PhaseEvidence = {
  phase: number
  kind: string
  index: number
  usedSec: number
  limitSec: number
  spokenMs: number
  hasTranscript: boolean
  words: number
  wordsPerMinute: number
  paceBand: Report['paceBand']
  fillers: Record<string, number>
  fillersPerMinute: number
  longPauses: { recordingId: string; startMs: number; endMs: number }[]
}

export type Evidence = {
  hasTranscript: boolean
  greeting: boolean
  closing: boolean
  overall: Report
  phases: PhaseEvidence[]
  keyPoints: { text: string; covered: boolean }[]
}

export const sourceName: Record<TranscriptSource, string> = {
  browser: 'Reconocimiento de voz del navegador',
  server: 'Transcripción del servidor',
  edited: 'Corregida a mano',
}
