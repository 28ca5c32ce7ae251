import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { caseFixture } from '@/test/fixtures'
import { CaseDetails } from './CaseDetails'

const c = caseFixture()

describe('CaseDetails', () => {
  it('in the grading view of a one-question attempt, sets the unasked questions apart and never numbers them', () => {
    render(<CaseDetails c={c} asked={1} />)
    const heard = screen.getByRole('heading', { name: 'Preguntas del tribunal' }).nextElementSibling!
    expect(heard.tagName).toBe('OL')
    expect(heard).toHaveTextContent('¿Qué norma?')
    expect(heard).not.toHaveTextContent('¿Ante quién?')
    const notHeard = screen.getByRole('heading', { name: 'Preguntas del caso no formuladas en este intento' }).nextElementSibling!
    expect(notHeard.tagName).toBe('UL')
    expect(notHeard).toHaveTextContent('¿Ante quién?¿En qué plazo?')
    const keyPoints = screen.getByRole('heading', { name: 'Puntos clave esperados' }).nextElementSibling!
    expect(keyPoints).toHaveTextContent('Tipicidad (Responde a la pregunta 1 del tribunal)')
    expect(keyPoints).toHaveTextContent('Competencia (Responde a una pregunta no formulada en este intento)')
    expect(keyPoints).not.toHaveTextContent(/pregunta[s]? [23]|preguntas/)
  })

  it('outside an attempt lists every tribunal question', () => {
    render(<CaseDetails c={c} />)
    expect(screen.getByRole('heading', { name: 'Preguntas del tribunal' }).nextElementSibling).toHaveTextContent('¿En qué plazo?')
    expect(screen.queryByRole('heading', { name: /no formuladas/ })).toBeNull()
  })
})
