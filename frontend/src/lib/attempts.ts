// What the app says about an attempt (Spanish names of phases, modes,
// statuses and difficulties), its length and score, and its TanStack Query
// keys.
import type { AttemptStatus, AttemptSummary, Blueprint, Difficulty, Levels, Mode, Phase, Rubric } from '@/types/api'

/** The difficulties in display order, with their Spanish names. */
export const difficulties: { value: Difficulty; label: string }[] = [
  { value: 'basico', label: 'Básico' },
  { value: 'intermedio', label: 'Intermedio' },
  { value: 'avanzado', label: 'Avanzado' },
]

export const difficultyName = (d: string | undefined) => difficulties.find((x) => x.value === d)?.label ?? ''

export const attemptKeys = {
  all: ['attempts'] as const,
  one: (id: string) => ['attempts', 'one', id] as const,
  mine: ['attempts', 'mine'] as const,
  progress: ['attempts', 'progress'] as const,
  grading: ['attempts', 'grading'] as const,
  ofStudent: (studentId: string) => ['attempts', 'student', studentId] as const,
  rubrics: ['rubric'] as const,
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

/**
 * examLength is how long a whole attempt lasts with a blueprint, in
 * seconds: every timed phase, each tribunal question twice (think, then
 * answer). The self-assessment has no time limit and is not counted.
 */
export function examLength(
  b: Pick<Blueprint, 'preparationSec' | 'presentationSec' | 'questions' | 'thinkSec' | 'answerSec' | 'closingSec'>,
): number {
  return b.preparationSec + b.presentationSec + b.questions * (b.thinkSec + b.answerSec) + b.closingSec
}

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
