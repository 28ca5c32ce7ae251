import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Table } from './Table'

describe('Table', () => {
  it('scrolls in a focusable region named after its caption, even without a focusable cell', () => {
    render(
      <Table caption="Sus sesiones activas" columns={['Dispositivo', { label: 'Acción', hidden: true }]}>
        <tr>
          <td>Firefox en Linux</td>
          <td />
        </tr>
      </Table>,
    )
    const region = screen.getByRole('region', { name: 'Sus sesiones activas' })
    expect(region).toHaveAttribute('tabindex', '0')
    const table = within(region).getByRole('table', { name: 'Sus sesiones activas' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Dispositivo', 'Acción'])
  })
})
