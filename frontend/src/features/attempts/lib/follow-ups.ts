import type { Case, Phase } from '@/types/api'

// An attempt asks the case's first follow-ups, one per answer phase, in the
// case's order (the degree's format may ask fewer than the case holds). So
// "pregunta N" means the N-th question the student heard, and a key point
// linked to a follow-up beyond those was never asked in this attempt.

/** How many tribunal questions an attempt asked: one per answer phase. */
export const askedCount = (phases: Pick<Phase, 'kind'>[]) => phases.filter((p) => p.kind === 'answer').length

/** What a key point answers: the asked questions (1-based), and whether it also answers a question not asked. */
export type KeyPointLink = { asked: number[]; notAsked: boolean }

/**
 * The tribunal questions each key point answers, by key point index. With
 * `asked` undefined every follow-up of the case counts as asked (a case
 * shown outside an attempt).
 */
export function keyPointLinks(c: Pick<Case, 'followUpKeyPoints' | 'followUps'>, asked?: number): Map<number, KeyPointLink> {
  const limit = asked ?? c.followUps.length
  const out = new Map<number, KeyPointLink>()
  ;(c.followUpKeyPoints ?? []).forEach((k, i) => {
    if (k <= 0) return
    const link = out.get(k - 1) ?? { asked: [], notAsked: false }
    if (i < limit) link.asked.push(i + 1)
    else link.notAsked = true
    out.set(k - 1, link)
  })
  return out
}

/** The line under a key point: which question of the tribunal it answers. */
export function keyPointLinkText(link: KeyPointLink): string {
  const qs = link.asked
  if (qs.length === 0) return 'Responde a una pregunta no formulada en este intento'
  return qs.length === 1
    ? `Responde a la pregunta ${qs[0]} del tribunal`
    : `Responde a las preguntas ${qs.slice(0, -1).join(', ')} y ${qs[qs.length - 1]} del tribunal`
}
