import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { MemoryRouter } from 'react-router-dom'

/**
 * renderWithQuery renders a component the way the app does: inside a
 * TanStack Query client of its own (no retries, so a failed request shows
 * at once) and, with router, inside a router at that path.
 */
export function renderWithQuery(ui: ReactNode, opts: { router?: string } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } })
  const inner = opts.router === undefined ? ui : <MemoryRouter initialEntries={[opts.router]}>{ui}</MemoryRouter>
  return { client, ...render(<QueryClientProvider client={client}>{inner}</QueryClientProvider>) }
}
