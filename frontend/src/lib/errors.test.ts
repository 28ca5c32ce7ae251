import { describe, expect, it } from 'vitest'
import { problemText } from './errors'

describe('problemText', () => {
  it('renders problems as the server does', () => {
    expect(problemText({ row: 3, column: 'correo', message: 'El correo «x» no es válido.' })).toBe(
      'Fila 3, columna «correo»: El correo «x» no es válido.',
    )
    expect(problemText({ row: 4, column: '', message: 'Fila vacía.' })).toBe('Fila 4: Fila vacía.')
    expect(problemText({ row: 0, column: 'carrera', message: 'Falta la columna «carrera».' })).toBe('Falta la columna «carrera».')
    expect(problemText({ row: 0, column: 'correo', message: 'Columna repetida.' })).toBe('Columna «correo»: Columna repetida.')
    expect(problemText({ row: 0, column: '', message: 'El archivo supera el límite de 2 MB.' })).toBe(
      'El archivo supera el límite de 2 MB.',
    )
  })
})
