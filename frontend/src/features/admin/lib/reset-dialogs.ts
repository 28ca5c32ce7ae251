// The dialogs of a password reset, in their own module: only the tutor's
// student list needs them.
import { base, swal } from '@/lib/dialogs'

// chooseDelivery asks how to hand something on: the confirm button, the
// other choice (shown only when offered) or neither (cancelled: null).
export async function chooseDelivery(
  title: string,
  text: string,
  primary: string,
  alternative: string | null,
): Promise<'primary' | 'alternative' | null> {
  const s = await swal()
  const res = await s.fire({
    ...base,
    icon: 'question',
    title,
    text,
    showCancelButton: true,
    cancelButtonText: 'Cancelar',
    confirmButtonText: primary,
    showDenyButton: alternative !== null,
    denyButtonText: alternative ?? undefined,
  })
  if (res.isConfirmed) return 'primary'
  if (res.isDenied) return 'alternative'
  return null
}

// showLinkToCopy shows a link in a read-only field, with a button that
// copies it to the clipboard (or selects it, where copying is refused).
export async function showLinkToCopy(title: string, text: string, link: string) {
  const s = await swal()
  const box = document.createElement('div')
  const p = document.createElement('p')
  p.textContent = text
  const label = document.createElement('label')
  label.textContent = 'Enlace'
  label.htmlFor = 'copiable-link'
  label.style.display = 'block'
  label.style.marginTop = '0.75rem'
  label.style.fontWeight = '600'
  const input = document.createElement('input')
  input.id = 'copiable-link'
  input.readOnly = true
  input.value = link
  input.style.width = '100%'
  input.style.marginTop = '0.25rem'
  input.style.padding = '0.5rem'
  input.style.border = '1px solid #94a3b8'
  input.style.borderRadius = '0.5rem'
  input.style.fontFamily = 'monospace'
  input.style.fontSize = '0.8rem'
  const copy = document.createElement('button')
  copy.type = 'button'
  copy.textContent = 'Copiar enlace'
  copy.className = 'swal2-styled'
  copy.style.marginTop = '0.75rem'
  copy.addEventListener('click', () => {
    input.select()
    navigator.clipboard?.writeText(link).then(
      () => (copy.textContent = 'Enlace copiado'),
      () => (copy.textContent = 'Seleccionado: use Ctrl+C'),
    )
  })
  box.append(p, label, input, copy)
  await s.fire({ ...base, icon: 'success', title, html: box, confirmButtonText: 'Cerrar' })
}
