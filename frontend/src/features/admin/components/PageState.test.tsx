import { describe, expect, it } from 'vitest'
import { render, screen } from '@testing-library/react'
import { PageState } from './PageState'

const back = <a href="/admin/calificar">← Volver a Calificar</a>
const query = (over: Partial<{ isPending: boolean; isError: boolean; data: string; error: unknown }>) => ({
  isPending: false,
  isError: false,
  data: undefined,
  error: null,
  ...over,
})

describe('PageState', () => {
  it('shows only a spinner while loading', () => {
    render(
      <PageState query={query({ isPending: true })} back={back} errorText={() => 'Error'}>
        {(d) => <p>{d}</p>}
      </PageState>,
    )
    expect(screen.queryByRole('link')).toBeNull()
    expect(screen.queryByText('Error')).toBeNull()
  })

  it('shows the way back and the error', () => {
    render(
      <PageState
        query={query({ isError: true, error: new Error('404') })}
        back={back}
        errorText={(e) => `No se encontró (${(e as Error).message}).`}
      >
        {(d) => <p>{d}</p>}
      </PageState>,
    )
    expect(screen.getByRole('link', { name: '← Volver a Calificar' })).toBeInTheDocument()
    expect(screen.getByText('No se encontró (404).')).toBeInTheDocument()
  })

  it('shows the way back and the page', () => {
    render(
      <PageState query={query({ data: 'Intento de Ana' })} back={back} errorText={() => 'Error'}>
        {(d) => <p>{d}</p>}
      </PageState>,
    )
    expect(screen.getByRole('link')).toBeInTheDocument()
    expect(screen.getByText('Intento de Ana')).toBeInTheDocument()
  })
})
