// The rubric editor's state and the rules the server applies to it
// (weights are whole numbers summing to 100; codes are unique).
import type { Criterion, CriterionGroup, Rubric } from '@/types/api'

/** CriterionDraft is a criterion being edited: weight as typed, and a stable key for React. */
export type CriterionDraft = Omit<Criterion, 'weight'> & { key: string; weight: string }

export type RubricDraft = { passScore: string; criteria: CriterionDraft[] }

let seq = 0
const newKey = () => `c${++seq}`

export function toDraft(rubric: Pick<Rubric, 'passScore' | 'criteria'>): RubricDraft {
  return {
    passScore: String(rubric.passScore),
    criteria: rubric.criteria.map((c) => ({
      ...c,
      key: newKey(),
      weight: String(c.weight),
      descriptors: [...c.descriptors] as Criterion['descriptors'],
    })),
  }
}

/** parseWeight reads a typed weight; anything but a whole number counts as 0. */
export function parseWeight(s: string): number {
  const t = s.trim()
  return /^\d+$/.test(t) ? Number(t) : 0
}

export type WeightSums = { total: number; contenido: number; formalidades: number }

export function weightSums(criteria: Pick<CriterionDraft, 'group' | 'weight'>[]): WeightSums {
  const out: WeightSums = { total: 0, contenido: 0, formalidades: 0 }
  for (const c of criteria) {
    const w = parseWeight(c.weight)
    out.total += w
    out[c.group] += w
  }
  return out
}

/** weightStatus says, in Spanish, whether the weights reach 100. */
export function weightStatus(total: number): { ok: boolean; text: string } {
  if (total === 100) return { ok: true, text: 'Los pesos suman 100.' }
  if (total < 100) return { ok: false, text: `Los pesos suman ${total}: faltan ${100 - total} para llegar a 100.` }
  return { ok: false, text: `Los pesos suman ${total}: sobran ${total - 100} para que sumen 100.` }
}

/** nextCriterionId proposes the next free code of a group: C6 after C1…C5, F1 when there is none. */
export function nextCriterionId(criteria: Pick<CriterionDraft, 'id'>[], group: CriterionGroup): string {
  const prefix = group === 'contenido' ? 'C' : 'F'
  const used = new Set(criteria.map((c) => c.id.trim().toUpperCase()))
  let n = 1
  for (const c of criteria) {
    const m = new RegExp(`^${prefix}(\\d+)$`, 'i').exec(c.id.trim())
    if (m) n = Math.max(n, Number(m[1]) + 1)
  }
  while (used.has(`${prefix}${n}`)) n++
  return `${prefix}${n}`
}

export function newCriterion(criteria: Pick<CriterionDraft, 'id'>[], group: CriterionGroup = 'contenido'): CriterionDraft {
  return {
    key: newKey(),
    id: nextCriterionId(criteria, group),
    group,
    name: '',
    weight: '',
    description: '',
    descriptors: ['', '', '', ''],
  }
}

/** duplicateIds lists the codes used more than once (ignoring case and spaces). */
export function duplicateIds(criteria: Pick<CriterionDraft, 'id'>[]): string[] {
  const seen = new Map<string, number>()
  for (const c of criteria) {
    const id = c.id.trim().toUpperCase()
    if (id) seen.set(id, (seen.get(id) ?? 0) + 1)
  }
  return [...seen].filter(([, n]) => n > 1).map(([id]) => id)
}

/** move returns the list with item i moved by delta places (a no-op at the ends). */
export function move<T>(list: T[], i: number, delta: number): T[] {
  const j = i + delta
  if (j < 0 || j >= list.length) return list
  const out = [...list]
  ;[out[i], out[j]] = [out[j], out[i]]
  return out
}

/** toRubricBody is the PUT body; the server validates everything again. */
export function toRubricBody(draft: RubricDraft): { criteria: Criterion[]; passScore: number } {
  return {
    passScore: Number(draft.passScore.replace(',', '.')),
    criteria: draft.criteria.map((c) => ({
      id: c.id.trim(),
      group: c.group,
      name: c.name.trim(),
      weight: parseWeight(c.weight),
      description: c.description.trim(),
      descriptors: c.descriptors.map((d) => d.trim()) as Criterion['descriptors'],
    })),
  }
}
