// The API's shapes, as the server's JSON has them (docs/api-simulator.md; every
// endpoint is in backend/internal/httpapi/routes.go): every response and request
// body the frontend reads or sends, and every object nested in one, declared once
// here. src/types/api-fields.test.ts checks each against the Go DTO of the same
// name (httpapi.APIShapes), nested objects included.

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

export type Degree = { id: string; nombre: string }

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

/** The two groups of a rubric's criteria. */
export type CriterionGroup = 'contenido' | 'formalidades'

export type Criterion = {
  id: string
  group: CriterionGroup
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
  levels: RubricLevel[]
}

/** A rubric level's name: 4 Excelente … 1 Insuficiente. */
export type RubricLevel = { level: number; name: string }

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
  late: boolean // the server registered it after its phase ended
  transcript: Transcript | null
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
  evidence: Evidence | null
  /** Only on the answer to a directed training start: where the draw aimed and why. */
  directed?: DirectedDraw
}

/** Where a "Sorteo dirigido" aims (or would aim) and why; area and difficulty are "" when there were no results to go on. */
export type DirectedDraw = { area: string; difficulty: string; reason: string }

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

/** An article of a norm; innumerado n is the n-th unnumbered article after it. */
export type Citation = { norm: string; article: number; innumerado?: number }

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
  bases?: BasesComparison
}

export type BasesComparison = { matched: Citation[]; missing: Citation[]; unexpected: Citation[]; probable: Citation[] }

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
  longPauses: PauseEvidence[]
}

/** A long silence in one recording. */
export type PauseEvidence = { recordingId: string; startMs: number; endMs: number }

export type Evidence = {
  hasTranscript: boolean
  greeting: boolean
  closing: boolean
  overall: Report
  phases: PhaseEvidence[]
  keyPoints: KeyPointStatus[]
}

/** Whether a case key point was found in the speech. */
export type KeyPointStatus = { text: string; covered: boolean }

/** Every error answer's body: a stable code, a Spanish message and, for some codes, details (the problems of a file or form). */
export type ErrorBody = { error: ErrorPayload }
export type ErrorPayload = { code: string; message: string; details?: unknown }

/** One thing wrong in an uploaded file (a roster, or a case import): row 0 is the whole file, column "" none. */
export type FileProblem = { row: number; column: string; message: string }
/** The details of a refused roster (invalid_roster, or students in another tutor's group). */
export type RosterProblem = FileProblem
/** The details of a refused case import (invalid_cases). */
export type ImportProblem = FileProblem
/** One thing wrong with a case, named by its field (the details of invalid_case). */
export type CaseProblem = { column: string; message: string }

// The case bank and a degree's configuration (the tutor's side).

export type ImportCasesResult = { created: number; updated: number }

/** The range a tutor may choose a blueprint value from. */
export type Bound = { min: number; max: number }

export type BlueprintBounds = {
  preparationSec: Bound
  presentationSec: Bound
  questions: Bound
  thinkSec: Bound
  answerSec: Bound
  closingSec: Bound
}

export type DegreeConfig = {
  degree: Degree
  blueprint: Blueprint
  rubric: Rubric
  bounds: BlueprintBounds
}

/** The whole body of a rubric update. */
export type RubricRequest = { criteria: Criterion[]; passScore: number }

// The student's home: the exam overview and their progress.

export type ExamOverview = {
  degree: Degree
  blueprint: Blueprint
  rubric: Rubric
  areas: string[]
  /** The difficulties of the degree's active cases, in display order. */
  difficulties: DifficultyOption[]
  inProgress: AttemptSummary | null
}

export type DifficultyOption = { value: Difficulty; label: string }

/** sube | baja | estable, or "" with fewer than two marks. */
export type Trend = 'sube' | 'baja' | 'estable' | ''

export type Progress = {
  attempts: number
  finished: number
  lastScore: number | null
  average: number | null
  trend: Trend
  lastActivity: string | null
  byCriterion: CriterionSeries[]
  recent: AttemptSummary[]
  /** Finished attempts per area of law, weakest average first. */
  byArea: AreaResult[]
  /** Where a "Sorteo dirigido" would aim now; null without results yet. */
  directed: DirectedDraw | null
}

/** A criterion's levels over time, oldest first. */
export type CriterionSeries = { id: string; name: string; group: string; points: CriterionPoint[] }
export type CriterionPoint = { at: string; level: number }

export type AreaResult = { area: string; attempts: number; average: number; passed: number }

// The attempt runner's request bodies.

/** Starting an attempt; area and difficulty narrow a training draw only, directed asks for a "Sorteo dirigido". */
export type StartRequest = { mode: Mode; area?: string; difficulty?: Difficulty; degree?: string; directed?: boolean }
/** from: the phase that ends (advance or skip). */
export type PhaseRequest = { from: number }
/** A self-assessment (levels) or a tutor's grade (levels and comments). */
export type LevelsRequest = { levels: Levels; comments?: string }
export type NotesRequest = { notes: string }
export type TranscriptRequest = { source: TranscriptSource; language: string; segments: Segment[] }
export type PutRecordingRequest = { phase: number; mimeType: string }
/** levels: the recorder's loudness samples, when it kept any. */
export type CompleteRequest = { chunks: number; durationMs: number; levels?: number[] }

// Session, sign-in and the account page.

export type Role = 'estudiante' | 'tutor'

export type User = {
  id: string
  mail: string
  displayName: string
  givenName: string
  surname: string
  photoUrl: string
  role: Role
}

export type Access = { test: boolean; admin: boolean }

/** The server's answer to "who am I and where may I go". A guest gets user null. */
export type Session = { user: User | null; access: Access }

/**
 * The answer to a sign-in: the new session, or (mfaRequired) a guest's
 * session while the server waits for the second factor (POST
 * /api/auth/login/code). device: a new device token for this account.
 */
export type LoginResult = Session & { mfaRequired?: boolean; device?: string }

/** device: the token this browser was given at an earlier sign-in of the account. */
export type LoginRequest = { email: string; password: string; device?: string }
export type LoginCodeRequest = { code: string }

/** The nonce the Microsoft popup must carry into its ID token. */
export type MicrosoftNonce = { nonce: string }
export type MicrosoftLoginRequest = { idToken: string }
/** created: the account was made by this sign-in. */
export type MicrosoftLoginResult = Session & { created: boolean }

export type PasswordResetInput = { token: string; password: string }

export type Account = {
  /** Whether the user signs in with a password (a Microsoft-only profile has none). */
  hasPassword: boolean
  mfa: MfaStatus
}

export type MfaStatus = {
  /** Two-step verification is offered: a tutor who signs in with a password. */
  available: boolean
  enabled: boolean
  recoveryCodesLeft: number
}

export type SessionItem = {
  id: string
  /** Browser and operating system, "" when unknown. */
  browser: string
  os: string
  ip: string
  createdAt: string
  lastSeenAt: string
  /** The session of this browser. */
  current: boolean
}

export type SessionsEnded = { ended: number }

export type ChangePasswordInput = { currentPassword: string; newPassword: string }
/** How many other sessions the password change ended. */
export type PasswordChanged = { sessionsEnded: number }

export type PasswordRequest = { password: string }
export type TotpSetup = { secret: string; uri: string; qr: string }
/** Confirming a new authenticator (code) or turning it off (password and code). */
export type TotpCodeRequest = { code: string; password: string }
/** One-time recovery codes, shown once. */
export type RecoveryCodes = { recoveryCodes: string[] }

/** A reset link e-mailed to the student; nobody else sees it. */
export type IssuedReset = { expiresAt: string; emailed: boolean }

// Groups, their members and reports. The group's Spanish field names are kept
// on purpose (docs/glossary.md).

export type GroupStatus = 'activo' | 'finalizado'

export type Group = {
  id: string
  carrera: string
  carreraNombre: string
  departamento: string
  facultad: string
  modalidad: string
  docente: Docente
  estudiantes: GroupStudent[]
  status: GroupStatus
  createdAt: string
  finalizedAt: string | null
}

export type Docente = { email: string }
export type GroupStudent = { email: string; attempts: unknown[] }

/** The tutor's active group, null when there is none. */
export type ActiveGroup = { group: Group | null }
export type FinalizedGroup = { group: Group }
export type LoadGroupResult = { skipped: boolean; group: Group }
export type AddStudentsRequest = { emails: string[] }
export type AddStudentsResult = { added: number; group: Group }
export type RemoveStudentRequest = { email: string }

export type Member = {
  email: string
  /** null when the students' profiles could not be read (infoUnavailable). */
  name: string | null
  /** Whether the student has ever signed in; null when unknown. */
  signedIn: boolean | null
  lastSignInAt: string | null
  userId?: string
  addedAt: string
  attempts: number
  finished: number
  lastActivity: string | null
  lastScore: number | null
  averageScore: number | null
  trend: Trend
}

/**
 * infoUnavailable: the profiles could not be read, so the list has the
 * emails alone (docs/product.md, "The group") and every name and signedIn
 * is null.
 */
export type GroupWithMembers = { group: Group; students: Member[]; infoUnavailable: boolean }

export type GroupReportResponse = { group: Group; report: GroupReport }

export type GroupReport = {
  students: number
  attempts: number
  finished: number
  graded: number
  passRate: number | null
  average: number | null
  byCriterion: CriterionAverage[]
  weeks: WeekCount[]
  inactive: InactiveStudent[]
  /** Lowest average first. */
  byArea: AreaReport[]
}

export type CriterionAverage = { id: string; name: string; group: string; averageLevel: number; count: number }
/** Attempts started in an ISO week (week: 2026-W47). */
export type WeekCount = { week: string; start: string; attempts: number; average: number | null }
export type InactiveStudent = { email: string; name: string; lastActivity: string | null }

/** AreaReport is a group's finished attempts in one area of law. */
export type AreaReport = {
  area: string
  finished: number
  average: number | null
  passRate: number | null
  /** Attempts with a transcript: the key points below come from them. */
  heard: number
  missed: MissedKeyPoint[]
}

/** A case's key point the group's transcripts leave out (missed of heard attempts). */
export type MissedKeyPoint = { case: string; text: string; missed: number; heard: number }

// Courses (LTI): the courses a tutor launched the simulator from, the course of
// the active group and its gradebook column (docs/lti.md).

export type LtiCourse = {
  id: string
  title: string
  label: string
  degree: string
  launchedAt?: string
  /** The platform offers the course's roster (NRPS). */
  roster: boolean
  /** The platform offers the course's gradebook (AGS). */
  grades: boolean
}

export type LtiColumn = { id: string; label: string; scoreMaximum?: number }
export type LtiGroupCourse = { groupId: string; course: LtiCourse; column: LtiColumn | null }
export type LtiCourses = { courses: LtiCourse[]; group: LtiGroupCourse | null }
export type LtiColumns = { items: LtiColumn[] }
export type LtiLinkedColumn = { column: LtiColumn }
/** id: a column of the course; "" creates the "Simulacro oral" column. */
export type LtiColumnRequest = { id: string }

export type LoadFromCourseInput = { courseId: string; degree: string }
export type Omitted = { name: string; email: string; reason: string }
export type LeftStudent = { email: string; name: string }
export type LoadFromCourseResult = { skipped: boolean; group: Group; omitted: Omitted[] }
export type UpdateFromCourseResult = { added: number; group: Group; left: LeftStudent[]; omitted: Omitted[] }
/** The details of students_already_in_group, when an update from the course added nobody. */
export type UpdateFromCourseDetails = { left: LeftStudent[]; omitted: Omitted[] }

/** Whether a Simulacro's grade reached the course's gradebook. */
export type ScoreState = 'none' | 'unlinked' | 'unsent' | 'pending' | 'sent' | 'error'
export type ScoreStatus = { state: ScoreState; error?: string; column?: string }

// The public configuration (embedded in index.html, or GET /api/config).

export type SiteConfig = {
  institutionName: string
  universityUrl: string
  contactEmail: string
  contactPhone: string
  contactAddress: string
  facebook: string
  instagram: string
  x: string
  youtube: string
  introVideoUrl: string
}

export type MicrosoftConfig = {
  enabled: boolean
  clientId?: string
  authority?: string
  knownAuthorities?: string[]
  protocolMode?: 'AAD' | 'OIDC'
  scopes: string[]
}

/** Whether the server can e-mail password-reset links. */
export type MailConfig = { enabled: boolean }

export type AppConfig = { site: SiteConfig; microsoft: MicrosoftConfig; mail: MailConfig }
