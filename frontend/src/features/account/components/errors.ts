import { ApiError } from '@/lib/api-client'
import { showError } from '@/lib/dialogs'

// showApiError shows a refused request with the server's Spanish message
// under a title that says what kind of problem it is.
export function showApiError(err: unknown, title = 'No se pudo completar') {
  if (err instanceof ApiError && err.status === 429) return showError('Demasiados intentos', err.message)
  return showError(title, err instanceof Error ? err.message : 'Ocurrió un error inesperado. Intente de nuevo.')
}
