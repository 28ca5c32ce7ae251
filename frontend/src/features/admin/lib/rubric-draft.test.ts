import { describe, expect, it } from 'vitest'
import {
  duplicateIds,
  move,
  newCriterion,
  nextCriterionId,
  parseWeight,
  toDraft,
  toRubricBody,
  weightStatus,
  weightSums,
} from './rubric-draft'
import type { Criterion } from '@/types/api'

const crit = (id: string, group: Criterion['group'], weight: number): Criterion => ({
  id,
  group,
  name: `Criterio ${id}`,
  weight,
  description: 'Qué busca',
  descriptors: ['uno', 'dos', 'tres', 'cuatro'],
})

describe('rubric draft', () => {
  const rubric = { passScore: 7, criteria: [crit('C1', 'contenido', 60), crit('C2', 'contenido', 10), crit('F1', 'formalidades', 30)] }

  it('sums weights per group and in total', () => {
    const d = toDraft(rubric)
    expect(weightSums(d.criteria)).toEqual({ total: 100, contenido: 70, formalidades: 30 })
    d.criteria[0].weight = '55'
    expect(weightSums(d.criteria).total).toBe(95)
    d.criteria[1].weight = ''
    expect(weightSums(d.criteria)).toEqual({ total: 85, contenido: 55, formalidades: 30 })
  })

  it('reads only whole weights', () => {
    expect(parseWeight(' 15 ')).toBe(15)
    expect(parseWeight('')).toBe(0)
    expect(parseWeight('7.5')).toBe(0)
    expect(parseWeight('-3')).toBe(0)
  })

  it('says whether the weights reach 100', () => {
    expect(weightStatus(100)).toEqual({ ok: true, text: 'Los pesos suman 100.' })
    expect(weightStatus(95)).toEqual({ ok: false, text: 'Los pesos suman 95: faltan 5 para llegar a 100.' })
    expect(weightStatus(110)).toEqual({ ok: false, text: 'Los pesos suman 110: sobran 10 para que sumen 100.' })
  })

  it('proposes free codes per group', () => {
    const d = toDraft(rubric).criteria
    expect(nextCriterionId(d, 'contenido')).toBe('C3')
    expect(nextCriterionId(d, 'formalidades')).toBe('F2')
    expect(nextCriterionId([], 'formalidades')).toBe('F1')
    expect(nextCriterionId([{ id: 'c9' }, { id: 'X' }], 'contenido')).toBe('C10')
    const added = newCriterion(d, 'contenido')
    expect(added).toMatchObject({ id: 'C3', group: 'contenido', weight: '', descriptors: ['', '', '', ''] })
    expect(d.map((c) => c.key)).not.toContain(added.key)
  })

  it('finds repeated codes', () => {
    expect(duplicateIds([{ id: 'C1' }, { id: 'c1 ' }, { id: 'F1' }, { id: '' }, { id: '' }])).toEqual(['C1'])
    expect(duplicateIds(toDraft(rubric).criteria)).toEqual([])
  })

  it('moves rows', () => {
    expect(move([1, 2, 3], 0, 1)).toEqual([2, 1, 3])
    expect(move([1, 2, 3], 2, -1)).toEqual([1, 3, 2])
    const l = [1, 2]
    expect(move(l, 0, -1)).toBe(l)
    expect(move(l, 1, 1)).toBe(l)
  })

  it('builds the request body, trimmed, with numbers', () => {
    const d = toDraft(rubric)
    d.passScore = '7,5'
    d.criteria[0].name = '  Problema  '
    d.criteria[0].id = ' C1 '
    const body = toRubricBody(d)
    expect(body.passScore).toBe(7.5)
    expect(body.criteria[0]).toEqual({ ...crit('C1', 'contenido', 60), name: 'Problema' })
    expect(body.criteria).toHaveLength(3)
    expect('key' in body.criteria[0]).toBe(false)
  })
})
