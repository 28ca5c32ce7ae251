import type { Case } from '@/types/api'

/** caseFixture is a small active demo case of Derecho, with what a test changes. */
export function caseFixture(over: Partial<Case> = {}): Case {
  return {
    id: 'c1',
    degree: 'Derecho',
    degreeId: 'derecho',
    area: 'Penal',
    title: 'Caso',
    difficulty: 'basico',
    facts: 'Hechos.',
    questions: ['¿Procede?'],
    followUps: ['¿Qué norma?', '¿Ante quién?', '¿En qué plazo?'],
    keyPoints: ['Tipicidad', 'Competencia', 'Plazo'],
    followUpKeyPoints: [1, 2, 3],
    legalBases: [],
    status: 'active',
    demo: true,
    ...over,
  }
}
