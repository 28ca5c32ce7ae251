// Shapes of the simulator API (docs/api-simulator.md).
import type { Evidence, Transcript } from '@/features/transcripts/api/types'

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

/** The difficulties in display order, with their Spanish names. */
export const difficulties: { value: Difficulty; label: string }[] = [
  { value: 'basico', label: 'Básico' },
  { value: 'intermedio', label: 'Intermedio' },
  { value: 'avanzado', label: 'Avanzado' },
]

export const difficultyName = (d: string | undefined) => difficulties.find((x) => x.value === d)?.label ?? ''

/** Percentages of a mock exam's draw per difficulty (they sum to 100). */
export type DifficultyMix = Record<Difficulty, number>

/** Who marked a case reviewed, and when. */
export type CaseReview = { by: string; byName: string; at: string }

export type Case = {
  id?: string
  degree: string
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
  legalBases: LegalBase[]
  status: 'active' | 'retired'
  demo: boolean
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

export const attemptKeys = {
  all: ['attempts'] as const,
  one: (id: string) => ['attempts', 'one', id] as const,
  mine: ['attempts', 'mine'] as const,
  progress: ['attempts', 'progress'] as const,
  grading: ['attempts', 'grading'] as const,
  ofStudent: (studentId: string) => ['attempts', 'student', studentId] as const,
  rubric: (degree: string) => ['rubric', degree] as const,
}

// Names shown for each phase, in Spanish.
export function phaseName(p: Pick<Phase, 'kind' | 'index'>): string {
  switch (p.kind) {
    case 'preparation':
      return 'Preparación'
    case 'presentation':
      return 'Exposición'
    case 'think':
      return `Pregunta ${p.index}: tiempo para pensar`
    case 'answer':
      return `Pregunta ${p.index}: respuesta`
    case 'closing':
      return 'Alegato de cierre'
    case 'self_assessment':
      return 'Autoevaluación'
  }
}

export const modeName = (m: Mode) => (m === 'simulacro' ? 'Simulacro' : 'Entrenamiento')

export const statusName = (s: AttemptStatus) => ({ in_progress: 'En curso', finished: 'Terminado', abandoned: 'Abandonado' })[s]

/** The mark a list shows: the tutor's when graded, else the student's own. */
export const summaryScore = (a: Pick<AttemptSummary, 'tutorScore' | 'selfScore'>) => a.tutorScore ?? a.selfScore

/**
 * Score out of 10 = sum(weight × level / 4) / 10, rounded half up to two
 * decimals, computed in integers as the server does (in floating point
 * 8.075 would become 8.07).
 */
export function scoreOf(rubric: Pick<Rubric, 'criteria'>, levels: Levels): number {
  let points = 0
  for (const c of rubric.criteria) points += c.weight * (levels[c.id] ?? 0)
  return Math.floor((points * 5 + 1) / 2) / 100
}
