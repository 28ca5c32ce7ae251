import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { AreaReportTable } from './AreaReportTable'

describe('AreaReportTable', () => {
  it('shows each area with its mark, pass rate and the key points its transcripts leave out', () => {
    render(
      <AreaReportTable
        areas={[
          {
            area: 'Tributario',
            finished: 2,
            average: 4.5,
            passRate: 0,
            heard: 2,
            missed: [{ case: 'Glosa y caducidad', text: 'Caducidad de la facultad determinadora', missed: 2, heard: 2 }],
          },
          { area: 'Laboral', finished: 1, average: 8, passRate: 1, heard: 0, missed: [] },
        ]}
      />,
    )
    const rows = within(screen.getByRole('table', { name: 'Resultados por área del derecho' }))
      .getAllByRole('row')
      .slice(1)
    expect(rows[0]).toHaveTextContent('Tributario24,5 / 100 %Caducidad de la facultad determinadora (Glosa y caducidad: omitido en 2 de 2)')
    expect(rows[1]).toHaveTextContent('Laboral18,0 / 10100 %Sin transcripciones')
  })
})
