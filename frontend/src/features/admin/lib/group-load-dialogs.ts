import { closeDialog, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'

/**
 * loadGroupWithDialogs runs a group load, from a roster file or from a
 * course, with the dialogs every load shows: "Cargando grupo" while it
 * runs, then "Grupo cargado", or the server's error. A load while a group
 * is already active is skipped silently (one active group per tutor), so
 * that case only closes the loading dialog. onLoaded sees the server's
 * answer before the success dialog opens.
 *
 * Callers pass mutateAsync, not mutate: the card that started the load may
 * unmount as soon as the new group is fetched, and the dialogs must still
 * follow.
 */
export async function loadGroupWithDialogs<T extends { skipped: boolean }>(load: () => Promise<T>, onLoaded?: (res: T) => void) {
  void showLoading('Cargando grupo', 'Por favor espere...')
  try {
    const res = await load()
    onLoaded?.(res)
    if (res.skipped) await closeDialog()
    else await showSuccess('Grupo cargado', 'El grupo se ha cargado correctamente')
  } catch (err) {
    await closeDialog()
    await showApiError(err)
  }
}
