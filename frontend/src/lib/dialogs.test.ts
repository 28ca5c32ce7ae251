import { showInfo, showLoading, showError } from './dialogs'

const state = () => document.documentElement.dataset.dialog

async function until(what: string, check: () => boolean) {
  await vi.waitFor(() => {
    if (!check()) throw new Error(`still waiting for ${what}`)
  })
}

describe('<html data-dialog>', () => {
  // SweetAlert2 asks for the reduced-motion preference and keeps the scroll
  // position; jsdom has neither matchMedia nor scrollTo.
  beforeAll(() => {
    window.matchMedia ??= (query: string) =>
      ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList
  })
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {})
  })

  it('is "open" while a dialog shows, "closing" until focus is back, then gone', async () => {
    const opener = document.createElement('button')
    document.body.append(opener)
    opener.focus()

    const shown = showInfo('Aviso', 'Texto')
    await until('the dialog', () => document.querySelector('.swal2-confirm') !== null)
    expect(state()).toBe('open')

    ;(document.querySelector('.swal2-confirm') as HTMLButtonElement).click()
    expect(state()).toBe('closing')
    await shown
    await until('focus to come back', () => state() === undefined)
    expect(document.activeElement).toBe(opener)
    opener.remove()
  })

  it('opens and closes without animation for a reader who asked for less motion', async () => {
    const media = (reduce: boolean) => (query: string) =>
      ({
        matches: reduce && query.includes('reduced-motion'),
        media: query,
        addEventListener() {},
        removeEventListener() {},
      }) as unknown as MediaQueryList
    const confirm = () => (document.querySelector('.swal2-confirm') as HTMLButtonElement).click()
    for (const reduce of [true, false]) {
      vi.spyOn(window, 'matchMedia').mockImplementation(media(reduce))
      const shown = showInfo('Aviso', 'Texto')
      await until('the dialog', () => state() === 'open')
      expect(document.querySelector('.swal2-container')?.classList.contains('swal2-noanimation')).toBe(reduce)
      confirm()
      await shown
      await until('the dialog to be gone', () => state() === undefined)
    }
  })

  it('follows a dialog that replaces one still closing, or still open', async () => {
    const confirm = () => (document.querySelector('.swal2-confirm') as HTMLButtonElement).click()
    const first = showInfo('Primero', 'Texto')
    await until('the first dialog', () => state() === 'open')
    confirm()
    await first
    // The first one's return of focus is cancelled by the next dialog.
    void showLoading('Cargando')
    const error = showError('Error', 'No se pudo')
    await until('the error dialog', () => document.querySelector('.swal2-title')?.textContent === 'Error')
    expect(state()).toBe('open')
    confirm()
    await error
    await until('the dialog to be gone', () => state() === undefined)
  })
})

describe('loading SweetAlert2', () => {
  afterEach(() => {
    vi.doUnmock('sweetalert2')
    vi.resetModules()
  })

  it('tries again on the next dialog after a failed load (the network was gone)', async () => {
    window.matchMedia ??= (query: string) =>
      ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }) as unknown as MediaQueryList
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {})
    let offline = true
    vi.doMock('sweetalert2', async (importOriginal) => {
      if (offline) throw new TypeError('Failed to fetch dynamically imported module')
      return importOriginal()
    })
    vi.resetModules()
    const dialogs = await import('./dialogs')
    await expect(dialogs.showInfo('Aviso', 'Texto')).rejects.toThrow()

    offline = false
    const shown = dialogs.showInfo('Aviso', 'Texto')
    await until('the dialog', () => document.querySelector('.swal2-confirm') !== null)
    ;(document.querySelector('.swal2-confirm') as HTMLButtonElement).click()
    await shown
  })
})
