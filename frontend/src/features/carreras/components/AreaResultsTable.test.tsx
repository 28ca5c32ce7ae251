import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { AreaResultsTable } from './AreaResultsTable'

describe('AreaResultsTable', () => {
  it('lists each area with its attempts, average and passes, in the order given', () => {
    render(
      <AreaResultsTable
        byArea={[
          { area: 'Tributario', attempts: 2, average: 4.5, passed: 0 },
          { area: 'Laboral', attempts: 1, average: 8, passed: 1 },
        ]}
      />,
    )
    const table = screen.getByRole('table', { name: 'Resultados por área del derecho' })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(['Tributario', 'Laboral'])
    expect(
      within(rows[0])
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2', expect.stringMatching(/^4,5 \/ 10$/), '0 de 2'])
  })
})
