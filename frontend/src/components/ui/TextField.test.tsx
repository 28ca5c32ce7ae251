import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { Field, TextField } from './TextField'

function Controlled(props: { errors?: string[] }) {
  const [value, setValue] = useState('')
  return (
    <TextField
      label="Nueva contraseña"
      hint="Al menos 8 caracteres."
      type="password"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      {...props}
    />
  )
}

describe('TextField', () => {
  it('is named by its label, described by its hint, and passes its props to the input', async () => {
    render(<Controlled />)
    const input = screen.getByLabelText('Nueva contraseña')
    expect(input).toHaveAttribute('type', 'password')
    expect(input).toHaveAccessibleDescription('Al menos 8 caracteres.')
    expect(input).not.toHaveAttribute('aria-invalid')
    await userEvent.type(input, 'secreto')
    expect(input).toHaveValue('secreto')
  })

  it('reads the server errors first, with the hint, and marks the input invalid', () => {
    render(<Controlled errors={['Es demasiado corta.', 'Es una contraseña común.']} />)
    const input = screen.getByLabelText('Nueva contraseña')
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toHaveAccessibleDescription('Es demasiado corta. Es una contraseña común. Al menos 8 caracteres.')
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Es demasiado corta.', 'Es una contraseña común.'])
  })

  it('keeps a given id, so an error summary can link to the field', () => {
    render(<TextField label="Título" id="caso-title" errors={['Falta el título.']} defaultValue="" />)
    const input = screen.getByLabelText('Título')
    expect(input).toHaveAttribute('id', 'caso-title')
    expect(input).toHaveAttribute('aria-describedby', 'caso-title-error')
  })
})

describe('Field', () => {
  it('ties its label and hint to the control the caller draws', () => {
    render(
      <Field label="Carrera" hint="La del grupo.">
        {({ id, describedBy, invalid }) => (
          <select id={id} aria-describedby={describedBy} aria-invalid={invalid || undefined}>
            <option>Derecho</option>
          </select>
        )}
      </Field>,
    )
    expect(screen.getByRole('combobox', { name: 'Carrera' })).toHaveAccessibleDescription('La del grupo.')
  })
})
