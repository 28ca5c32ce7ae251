// The case form's state, the body sent to the server, and the server's
// problems (400 invalid_case: details [{column, message}]) sorted by field.
import type { Case, LegalBase } from '@/features/attempts/api/types'

export type CaseDraft = {
  degreeId: string
  area: string
  title: string
  facts: string
  questions: string[]
  followUps: string[]
  keyPoints: string[]
  legalBases: LegalBase[]
  status: Case['status']
  demo: boolean
}

export type CaseBody = Omit<CaseDraft, never>

export type CaseField = 'degree' | 'area' | 'title' | 'facts' | 'questions' | 'followUps' | 'keyPoints' | 'legalBases' | 'status'

/** Spanish names of the fields, in the order the form shows them. */
export const caseFieldNames: Record<CaseField, string> = {
  degree: 'Carrera',
  title: 'Título',
  area: 'Área',
  facts: 'Hechos del caso',
  questions: 'Preguntas del caso',
  followUps: 'Preguntas del tribunal',
  keyPoints: 'Puntos clave esperados',
  legalBases: 'Bases legales esperadas',
  status: 'Estado',
}

/** The legal areas suggested for a case (others may be typed). */
export const areaSuggestions = ['Constitucional', 'Penal', 'Civil', 'Procesal', 'Laboral', 'Niñez y Familia', 'Administrativo']

const atLeastOne = <T>(list: T[] | undefined, blank: T): T[] => (list && list.length > 0 ? [...list] : [blank])

export function emptyCaseDraft(degreeId: string): CaseDraft {
  return {
    degreeId,
    area: '',
    title: '',
    facts: '',
    questions: [''],
    followUps: [''],
    keyPoints: [''],
    legalBases: [{ norm: '', article: '' }],
    status: 'active',
    demo: false,
  }
}

export function toCaseDraft(c: Case): CaseDraft {
  return {
    degreeId: c.degreeId,
    area: c.area,
    title: c.title,
    facts: c.facts,
    questions: atLeastOne(c.questions, ''),
    followUps: atLeastOne(c.followUps, ''),
    keyPoints: atLeastOne(c.keyPoints, ''),
    legalBases: atLeastOne(c.legalBases?.map((b) => ({ ...b })), { norm: '', article: '' }),
    status: c.status,
    demo: c.demo,
  }
}

/** oneLine keeps a list item on one line, as the exchange format requires. */
export const oneLine = (s: string) => s.replace(/\s*[\r\n]+\s*/g, ' ')

/** toCaseBody trims the draft and drops blank list rows. */
export function toCaseBody(d: CaseDraft): CaseBody {
  const items = (l: string[]) => l.map((s) => oneLine(s).trim()).filter(Boolean)
  return {
    degreeId: d.degreeId,
    area: d.area.trim(),
    title: d.title.trim(),
    facts: d.facts.trim(),
    questions: items(d.questions),
    followUps: items(d.followUps),
    keyPoints: items(d.keyPoints),
    legalBases: d.legalBases.map((b) => ({ norm: b.norm.trim(), article: b.article.trim() })).filter((b) => b.norm || b.article),
    status: d.status,
    demo: d.demo,
  }
}

type Problem = { column?: string; field?: string; message: string }

function isProblems(v: unknown): v is Problem[] {
  return Array.isArray(v) && v.every((p) => p && typeof p === 'object' && typeof (p as Problem).message === 'string')
}

/** problemsByField groups the server's problems by form field; unknown columns go under "". */
export function problemsByField(details: unknown): Partial<Record<CaseField | '', string[]>> {
  const out: Partial<Record<CaseField | '', string[]>> = {}
  if (!isProblems(details)) return out
  for (const p of details) {
    const col = (p.column ?? p.field ?? '') as string
    const key = (col in caseFieldNames ? col : '') as CaseField | ''
    ;(out[key] ??= []).push(p.message)
  }
  return out
}
