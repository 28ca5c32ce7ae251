import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { caseFixture } from '@/test/fixtures'
import { RevealPanel } from './RevealPanel'

const c = caseFixture({
  keyPoints: ['Tipicidad', 'Competencia y plazo'],
  followUpKeyPoints: [1, 2, 2],
  legalBases: [
    {
      norm: 'COIP',
      article: '146',
      note: 'Homicidio culposo por mala práctica.',
      label: 'art. 146',
      url: 'https://www.funcionjudicial.gob.ec/',
    },
    { norm: 'Código de la Niñez y Adolescencia', article: '125+2', label: 'art. innumerado 2 a continuación del art. 125' },
  ],
})

describe('RevealPanel', () => {
  it('links each legal base to its norm in a new tab, with its description', () => {
    render(<RevealPanel c={c} notes="" />)
    const link = screen.getByRole('link', { name: /COIP, art\. 146/ })
    expect(link).toHaveAttribute('href', 'https://www.funcionjudicial.gob.ec/')
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    expect(screen.getByText('Homicidio culposo por mala práctica.')).toBeInTheDocument()
    // Without an address, the citation is plain text.
    expect(screen.getByText('Código de la Niñez y Adolescencia, art. innumerado 2 a continuación del art. 125').closest('a')).toBeNull()
    expect(screen.getByText(/pendiente de revisión docente/)).toBeInTheDocument()
  })

  it('says which tribunal questions each key point answers', () => {
    render(<RevealPanel c={c} notes="" />)
    const items = within(screen.getByRole('heading', { name: 'Puntos clave del caso' }).parentElement!).getAllByRole('listitem')
    expect(items[0]).toHaveTextContent('Responde a la pregunta 1 del tribunal')
    expect(items[1]).toHaveTextContent('Responde a las preguntas 2 y 3 del tribunal')
  })

  it('with a one-question format, never speaks of questions 2 or 3', () => {
    render(<RevealPanel c={c} notes="" asked={1} />)
    const items = within(screen.getByRole('heading', { name: 'Puntos clave del caso' }).parentElement!).getAllByRole('listitem')
    expect(items[0]).toHaveTextContent('Responde a la pregunta 1 del tribunal')
    expect(items[1]).toHaveTextContent('Responde a una pregunta no formulada en este intento')
    expect(items[0].parentElement).not.toHaveTextContent(/pregunta[s]? [23]|preguntas/)
  })
})
