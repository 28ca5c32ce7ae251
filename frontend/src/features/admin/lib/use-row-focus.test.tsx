import { useState } from 'react'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRowFocus } from './use-row-focus'

function List() {
  const [rows, setRows] = useState(['a', 'b', 'c'])
  const { refs, focusRow } = useRowFocus<HTMLInputElement>()
  return (
    <div>
      {rows.map((r, i) => (
        <div key={r}>
          <input
            aria-label={`Fila ${r}`}
            ref={(el) => {
              refs.current[i] = el
            }}
          />
          <button
            onClick={() => {
              const next = rows.filter((_, j) => j !== i)
              setRows(next)
              focusRow(Math.min(i, next.length - 1))
            }}
          >
            Quitar {r}
          </button>
        </div>
      ))}
      <button
        onClick={() => {
          setRows([...rows, String.fromCharCode(97 + rows.length)])
          focusRow(rows.length)
        }}
      >
        Agregar
      </button>
    </div>
  )
}

describe('useRowFocus', () => {
  it('focuses the row that took the removed one’s place, then the last one', async () => {
    render(<List />)
    await userEvent.click(screen.getByRole('button', { name: 'Quitar b' }))
    expect(screen.getByLabelText('Fila c')).toHaveFocus()
    await userEvent.click(screen.getByRole('button', { name: 'Quitar c' }))
    expect(screen.getByLabelText('Fila a')).toHaveFocus()
  })

  it('focuses a row added at the end', async () => {
    render(<List />)
    await userEvent.click(screen.getByRole('button', { name: 'Agregar' }))
    expect(screen.getByLabelText('Fila d')).toHaveFocus()
  })
})
