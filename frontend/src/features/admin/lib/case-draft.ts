// The case form's state, the body sent to the server, and the server's
// problems (400 invalid_case: details [{column, message}]) sorted by field.
import type { Case, CaseFields, LegalBase } from '@/types/api'
import areas from '@/types/areas.json'

/** A legal base as the form edits it (a note, empty or not). */
export type DraftLegalBase = Required<Pick<LegalBase, 'norm' | 'article' | 'note'>>

/** The form's state: one followUpKeyPoints entry per follow-up, at least one row in each list. */
export type CaseDraft = CaseFields<DraftLegalBase>

/** What create and update send: a legal base's label and url are the server's. */
export type CaseBody = CaseFields<Pick<LegalBase, 'norm' | 'article' | 'note'>>

export type CaseField =
  | 'degree'
  | 'area'
  | 'title'
  | 'difficulty'
  | 'facts'
  | 'questions'
  | 'followUps'
  | 'keyPoints'
  | 'followUpKeyPoints'
  | 'legalBases'
  | 'status'

/** Spanish names of the fields, in the order the form shows them. */
export const caseFieldNames: Record<CaseField, string> = {
  degree: 'Carrera',
  title: 'Título',
  area: 'Área',
  difficulty: 'Dificultad',
  facts: 'Hechos del caso',
  questions: 'Preguntas del caso',
  followUps: 'Preguntas del tribunal',
  keyPoints: 'Puntos clave esperados',
  followUpKeyPoints: 'Punto clave que responde cada pregunta del tribunal',
  legalBases: 'Bases legales esperadas',
  status: 'Estado',
}

/**
 * The legal areas suggested for a case (others may be typed), as the server
 * lists them: areas.json is written from domain.Areas by backend/cmd/apitypes.
 */
export const areaSuggestions: readonly string[] = areas

const atLeastOne = <T>(list: T[] | undefined, blank: T): T[] => (list && list.length > 0 ? [...list] : [blank])

export function emptyCaseDraft(degreeId: string): CaseDraft {
  return {
    degreeId,
    area: '',
    title: '',
    difficulty: '',
    facts: '',
    questions: [''],
    followUps: [''],
    keyPoints: [''],
    followUpKeyPoints: [0],
    legalBases: [{ norm: '', article: '', note: '' }],
    status: 'active',
    demo: false,
  }
}

export function toCaseDraft(c: Case): CaseDraft {
  const followUps = atLeastOne(c.followUps, '')
  return {
    degreeId: c.degreeId,
    area: c.area,
    title: c.title,
    difficulty: c.difficulty ?? '',
    facts: c.facts,
    questions: atLeastOne(c.questions, ''),
    followUps,
    keyPoints: atLeastOne(c.keyPoints, ''),
    followUpKeyPoints: followUps.map((_, i) => c.followUpKeyPoints?.[i] ?? 0),
    legalBases: atLeastOne(
      c.legalBases?.map((b) => ({ norm: b.norm, article: b.article, note: b.note ?? '' })),
      { norm: '', article: '', note: '' },
    ),
    status: c.status,
    demo: c.demo,
  }
}

/**
 * removedIndex is the position of the one item removed from before to get
 * after (a list editor removes one row at a time), or -1 when nothing was
 * removed.
 */
export function removedIndex(before: string[], after: string[]): number {
  if (after.length !== before.length - 1) return -1
  const i = after.findIndex((v, j) => v !== before[j])
  return i === -1 ? after.length : i
}

/** The links after the follow-up at position removed was deleted; rows added at the end get no link. */
export function linksAfterFollowUps(links: number[], before: string[], after: string[]): number[] {
  const r = removedIndex(before, after)
  const kept = r >= 0 ? links.filter((_, i) => i !== r) : links
  return after.map((_, i) => kept[i] ?? 0)
}

/** The links after the key point at position removed was deleted: later numbers move up, links to it are dropped. */
export function linksAfterKeyPoints(links: number[], before: string[], after: string[]): number[] {
  const r = removedIndex(before, after)
  if (r < 0) return links
  return links.map((k) => (k === r + 1 ? 0 : k > r + 1 ? k - 1 : k))
}

/** oneLine keeps a list item on one line, as the exchange format requires. */
export const oneLine = (s: string) => s.replace(/\s*[\r\n]+\s*/g, ' ')

/** toCaseBody trims the draft and drops blank list rows. */
export function toCaseBody(d: CaseDraft): CaseBody {
  const clean = (s: string) => oneLine(s).trim()
  const items = (l: string[]) => l.map(clean).filter(Boolean)
  // Blank key point rows are dropped: renumber the links to those kept.
  const keyPointNumber = new Map<number, number>()
  d.keyPoints.forEach((k, i) => {
    if (clean(k)) keyPointNumber.set(i + 1, keyPointNumber.size + 1)
  })
  const links = d.followUps.flatMap((f, i) => (clean(f) ? [keyPointNumber.get(d.followUpKeyPoints[i] ?? 0) ?? 0] : []))
  return {
    degreeId: d.degreeId,
    area: d.area.trim(),
    title: d.title.trim(),
    difficulty: d.difficulty,
    facts: d.facts.trim(),
    questions: items(d.questions),
    followUps: items(d.followUps),
    keyPoints: items(d.keyPoints),
    followUpKeyPoints: links.some((k) => k > 0) ? links : [],
    legalBases: d.legalBases
      .map((b) => {
        const base = { norm: b.norm.trim(), article: b.article.trim() }
        const note = clean(b.note)
        return note ? { ...base, note } : base
      })
      .filter((b) => b.norm || b.article),
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
