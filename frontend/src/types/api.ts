// The API's shapes, as the server's JSON has them (docs/api-simulator.md; every
// endpoint is in backend/internal/httpapi/routes.go). Every feature takes them from
// here; src/types/api-fields.test.ts checks the fields of the main ones against the
// Go DTOs.

export type Mode = 'entrenamiento' | 'simulacro'
export type AttemptStatus = 'in_progress' | 'finished' | 'abandoned'
export type PhaseKind = 'preparation' | 'presentation' | 'think' | 'answer' | 'closing' | 'self_assessment'

/**
 * A legal base. note is a one-line description of what the article
 * regulates (demo content until faculty review it); label ("art. 76.7.l")
 * and url (the norm's official text) come with the server's answers.
 */
export type LegalBase = { norm: string; article: string; note?: string; label?: string; url?: string }

export type Difficulty = 'basico' | 'intermedio' | 'avanzado'

/** Percentages of a mock exam's draw per difficulty (they sum to 100). */
export type DifficultyMix = Record<Difficulty, number>

/** Who marked a case reviewed, and when. */
export type CaseReview = { by: string; byName: string; at: string }

/**
 * The fields of a case a tutor writes, declared once: the case as the
 * server sends it adds what the server keeps (Case), the body a tutor sends
 * and the form's draft take these (features/admin/lib/case-draft.ts).
 */
export type CaseFields<Base = LegalBase> = {
  degreeId: string
  area: string
  title: string
  difficulty: Difficulty | ''
  facts: string
  questions: string[]
  followUps: string[]
  keyPoints: string[]
  /** followUpKeyPoints[i] is the number (1-based) of the key point answering followUps[i], 0 for none; empty when none is linked. */
  followUpKeyPoints: number[]
  legalBases: Base[]
  status: 'active' | 'retired'
  demo: boolean
}

export type Case = CaseFields & {
  id?: string
  /** The degree's name. */
  degree: string
  review?: CaseReview
  updatedAt?: string
}

export type Blueprint = {
  degreeId: string
  preparationSec: number
  presentationSec: number
  questions: number
  thinkSec: number
  answerSec: number
  closingSec: number
  defaultMode: Mode
  difficultyMix: DifficultyMix
}

export type Criterion = {
  id: string
  group: 'contenido' | 'formalidades'
  name: string
  weight: number
  description: string
  /** descriptors[level - 1] describes that level (1 Insuficiente … 4 Excelente). */
  descriptors: [string, string, string, string]
}

export type Rubric = {
  degreeId: string
  version: number
  passScore: number
  criteria: Criterion[]
  levels: { level: number; name: string }[]
}

export type Levels = Record<string, number>

export type Phase = {
  kind: PhaseKind
  index: number
  limitSec: number
  startedAt: string | null
  endedAt: string | null
  pausedSec: number
  pausedAt: string | null
  skipped: boolean
  recorded: boolean
  deadline: string | null
  usedSec: number
}

export type Recording = {
  id: string
  phase: number
  mimeType: string
  chunks: number
  bytes: number
  durationMs: number
  complete: boolean
  deleted: boolean
  createdAt: string
  late?: boolean // the server registered it after its phase ended
  transcript?: Transcript | null
}

export type Person = { id: string; mail: string; displayName: string }

export type SelfAssessment = { levels: Levels; score: number; at: string }
export type TutorGrade = { levels: Levels; score: number; comments: string; by: string; byName?: string; at: string }

export type Attempt = {
  id: string
  mode: Mode
  status: AttemptStatus
  student: Person
  groupId: string
  degreeId: string
  degreeName: string
  case: Case
  phases: Phase[]
  current: number
  serverTime: string
  notes: string
  blueprint: Blueprint
  rubric: Rubric
  selfAssessment: SelfAssessment | null
  tutorGrade: TutorGrade | null
  recordings: Recording[]
  createdAt: string
  finishedAt: string | null
  /** The automatic evidence, once the attempt is finished. */
  evidence?: Evidence | null
  /** Only on the answer to a directed training start: where the draw aimed and why. */
  directed?: { area: string; difficulty: string; reason: string }
}

export type AttemptSummary = {
  id: string
  mode: Mode
  status: AttemptStatus
  caseTitle: string
  area: string
  createdAt: string
  finishedAt: string | null
  selfScore: number | null
  tutorScore: number | null
  graded: boolean
  student: Person
}

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
