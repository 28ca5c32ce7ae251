import { beforeEach, describe, expect, it } from 'vitest'
import { clearLocalStorage, consumeRedirect, saveRedirect } from './storage'

describe('storage', () => {
  beforeEach(() => {
    localStorage.clear()
    sessionStorage.clear()
  })

  it('keeps the saved location through clearing local storage, and gives it once', () => {
    localStorage.setItem('a', '1')
    saveRedirect('/admin/grupo?x=1')
    clearLocalStorage()
    expect(localStorage.length).toBe(0)
    expect(consumeRedirect()).toBe('/admin/grupo?x=1')
    expect(consumeRedirect()).toBeNull()
  })

  it('refuses locations that would leave the site', () => {
    for (const bad of ['https://evil.example/', '//evil.example/x', 'javascript:alert(1)']) {
      saveRedirect(bad)
      expect(consumeRedirect()).toBeNull()
    }
  })
})
