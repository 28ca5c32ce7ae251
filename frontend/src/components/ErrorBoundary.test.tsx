import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { ErrorBoundary } from './ErrorBoundary'

function Broken({ error }: { error: Error }): never {
  throw error
}

const staleChunk = () => new TypeError('Failed to fetch dynamically imported module: https://example.test/assets/AdminSection-abc123.js')

describe('ErrorBoundary', () => {
  beforeEach(() => {
    sessionStorage.clear()
    vi.spyOn(console, 'error').mockImplementation(() => {})
  })
  afterEach(() => sessionStorage.clear())

  it('shows its children while nothing fails', () => {
    render(
      <ErrorBoundary>
        <p>Contenido</p>
      </ErrorBoundary>,
    )
    expect(screen.getByText('Contenido')).toBeInTheDocument()
  })

  it('shows a Spanish message and a Recargar button when a page throws', async () => {
    const reload = vi.fn()
    render(
      <ErrorBoundary reload={reload}>
        <Broken error={new Error('boom')} />
      </ErrorBoundary>,
    )
    expect(screen.getByRole('alert')).toHaveTextContent('No se pudo mostrar esta página')
    expect(reload).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Recargar' }))
    expect(reload).toHaveBeenCalledOnce()
  })

  it('reloads once for a stale lazy chunk, and never in a loop', () => {
    const reload = vi.fn()
    const first = render(
      <ErrorBoundary reload={reload}>
        <Broken error={staleChunk()} />
      </ErrorBoundary>,
    )
    expect(reload).toHaveBeenCalledOnce()
    expect(screen.getByRole('status')).toHaveTextContent('Hay una versión nueva de la aplicación. Recargando…')
    first.unmount()

    // The reloaded page fails the same way: no second reload, the message instead.
    render(
      <ErrorBoundary reload={reload}>
        <Broken error={staleChunk()} />
      </ErrorBoundary>,
    )
    expect(reload).toHaveBeenCalledOnce()
    expect(screen.getByRole('button', { name: 'Recargar' })).toBeInTheDocument()
  })

  it('clears the error when the page changes', () => {
    const { rerender } = render(
      <ErrorBoundary resetKey="/admin/casos">
        <Broken error={new Error('boom')} />
      </ErrorBoundary>,
    )
    expect(screen.getByRole('alert')).toBeInTheDocument()
    rerender(
      <ErrorBoundary resetKey="/admin/grupo">
        <p>Otra página</p>
      </ErrorBoundary>,
    )
    expect(screen.getByText('Otra página')).toBeInTheDocument()
  })

  it('lets a later deploy reload again once the user reloaded', async () => {
    const reload = vi.fn()
    sessionStorage.setItem('simulador.reloadedForNewVersion', '1')
    render(
      <ErrorBoundary reload={reload}>
        <Broken error={staleChunk()} />
      </ErrorBoundary>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Recargar' }))
    expect(sessionStorage.getItem('simulador.reloadedForNewVersion')).toBeNull()
  })
})
