import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Session } from './get-session'

const guest: Session = { user: null, access: { test: false, admin: false } }
const member: Session = {
  user: { id: 'u', mail: 'a@utpl.edu.ec', displayName: 'A', givenName: 'A', surname: '', photoUrl: '', role: 'estudiante' },
  access: { test: true, admin: false },
}

// get-session reads the page once, when it is first imported.
async function load(embedded?: string) {
  document.head.innerHTML = embedded === undefined ? '' : `<script id="app-session" type="application/json">${embedded}</script>`
  vi.resetModules()
  return import('./get-session')
}

describe('the session a guest page was served with', () => {
  afterEach(() => {
    document.head.innerHTML = ''
  })

  it('answers the first session query without a request, and only the first', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json(member))
    const { sessionQueryOptions } = await load(JSON.stringify(guest))
    const client = new QueryClient()
    expect(await client.fetchQuery(sessionQueryOptions())).toEqual(guest)
    expect(fetch).not.toHaveBeenCalled()

    // After a sign-in or sign-out forgets it, the server answers.
    client.removeQueries()
    expect(await client.fetchQuery(sessionQueryOptions())).toEqual(member)
    expect(fetch).toHaveBeenCalledTimes(1)
  })

  it('is asked of the server when the page embeds none (a session cookie), or an unreadable one', async () => {
    for (const embedded of [undefined, '{not json']) {
      const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json(member))
      const { sessionQueryOptions } = await load(embedded)
      expect(await new QueryClient().fetchQuery(sessionQueryOptions())).toEqual(member)
      expect(fetch).toHaveBeenCalledTimes(1)
      fetch.mockRestore()
    }
  })
})
