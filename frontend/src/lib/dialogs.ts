// Every dialog goes through here: the only SweetAlert2 import, loaded on
// first use so it does not weigh on the first page load
// (docs/decisions/0005-lazy-dialogs-and-sections.md).

type Swal = typeof import('sweetalert2').default

let swalPromise: Promise<Swal> | null = null
function load(): Promise<Swal> {
  // A failed load (the network was gone) is not kept: the next dialog tries again.
  swalPromise ??= import('sweetalert2')
    .then((m) => m.default)
    .catch((e: unknown) => {
      swalPromise = null
      throw e
    })
  return swalPromise
}

// preloadDialogs loads SweetAlert2 ahead of need. The attempt page calls it:
// a student there may lose the network (the recordings wait in the browser),
// and "Abandonar intento" must still ask, without a download on the click.
export function preloadDialogs() {
  void load().catch(() => undefined)
}

// A dialog that replaces a loading dialog waits until the loading one has
// opened (SweetAlert2 runs didOpen a moment after fire). Otherwise, when the
// server answers before SweetAlert2 has loaded, the loading dialog is never
// seen and its late didOpen puts the spinner on the dialog that replaced it.
let loadingOpened: Promise<void> = Promise.resolve()

// swal loads SweetAlert2 (exported for dialogs kept in their own modules,
// off the first page's bundle).
export async function swal(): Promise<Swal> {
  const s = await load()
  await loadingOpened
  return s
}

// SweetAlert2 gives focus back to the element that had it 100 ms after a
// dialog has gone, and that focus may scroll the page. <html data-dialog>
// says where the dialog is in its life: "open", then "closing" until focus is
// back. Whatever must act on the page right after a dialog (the end-to-end
// tests) waits for the attribute to go, not for a time. A dialog that opens
// while another is closing cancels that one's return of focus, so its
// willOpen takes over the attribute.
function markDialog(state: 'open' | 'closing' | null) {
  if (state) document.documentElement.dataset.dialog = state
  else delete document.documentElement.dataset.dialog
}

// SweetAlert2 zooms a dialog in and out and has no setting of its own for
// a reader who asked the system for less motion; the page asks the browser.
function reducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
}

export const base = {
  confirmButtonText: 'Aceptar',
  buttonsStyling: true,
  returnFocus: true,
  heightAuto: false,
  // A getter: read each time a dialog is spread from base, so a preference
  // changed while the page is open is followed.
  get animation() {
    return !reducedMotion()
  },
  willOpen: () => markDialog('open'),
  willClose: () => markDialog('closing'),
  didClose: () => markDialog(null),
}

export async function showError(title: string, text: string) {
  const s = await swal()
  await s.fire({ ...base, icon: 'error', title, text })
}

export async function showSuccess(title: string, text: string) {
  const s = await swal()
  await s.fire({ ...base, icon: 'success', title, text })
}

export async function showInfo(title: string, text: string) {
  const s = await swal()
  await s.fire({ ...base, icon: 'info', title, text })
}

// showErrorList shows an error with a list of problems (e.g. roster rows).
export async function showErrorList(title: string, text: string, items: string[]) {
  const s = await swal()
  const list = document.createElement('div')
  const p = document.createElement('p')
  p.textContent = text
  const ul = document.createElement('ul')
  ul.style.textAlign = 'left'
  ul.style.maxHeight = '40vh'
  ul.style.overflowY = 'auto'
  ul.style.marginTop = '0.75rem'
  for (const item of items) {
    const li = document.createElement('li')
    li.textContent = item
    ul.appendChild(li)
  }
  list.append(p, ul)
  await s.fire({ ...base, icon: 'error', title, html: list })
}

// showLoading opens a non-dismissable progress dialog; close it with closeDialog
// or replace it by showing the next dialog.
export async function showLoading(title: string, text = 'Por favor espere...') {
  const previous = loadingOpened
  let opened: () => void = () => {}
  loadingOpened = new Promise<void>((resolve) => (opened = resolve))
  try {
    const s = await load()
    await previous
    void s.fire({
      ...base,
      title,
      text,
      allowOutsideClick: false,
      allowEscapeKey: false,
      showConfirmButton: false,
      // didOpen runs on a timer: when a quick answer has already replaced
      // this dialog (an error, say), its spinner must not hide that one's button.
      didOpen: (popup) => {
        if (s.getPopup() === popup) s.showLoading()
        opened()
      },
    })
    setTimeout(opened, 1000) // never hold the next dialog longer than this
  } catch (e) {
    opened()
    throw e
  }
}

// confirmAction asks to confirm; title and text are shown as plain text
// (titleText: a title may quote a user's name, never read as HTML).
export async function confirmAction(title: string, text: string, confirmButtonText: string) {
  const s = await swal()
  const res = await s.fire({
    ...base,
    icon: 'warning',
    titleText: title,
    text,
    showCancelButton: true,
    confirmButtonText,
    cancelButtonText: 'Cancelar',
    focusCancel: true,
  })
  return res.isConfirmed
}

export async function closeDialog() {
  const s = await swal()
  s.close()
}
