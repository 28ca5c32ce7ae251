import type { FileProblem as Problem } from '@/types/api'
import { ApiError } from './api-client'
import { showError, showErrorList } from './dialogs'

function problemText(p: Problem): string {
  if (p.row > 0 && p.column) return `Fila ${p.row}, columna «${p.column}»: ${p.message}`
  if (p.row > 0) return `Fila ${p.row}: ${p.message}`
  if (p.column && !p.message.includes(`«${p.column}»`)) return `Columna «${p.column}»: ${p.message}`
  return p.message
}

function isProblemList(v: unknown): v is Problem[] {
  return Array.isArray(v) && v.every((p) => p && typeof p === 'object' && 'message' in p)
}

// showApiError shows a server error in one Spanish dialog; a list of
// problems (e.g. roster rows) is shown item by item.
export function showApiError(err: unknown, title = 'Error') {
  if (err instanceof ApiError && isProblemList(err.details) && err.details.length > 0) {
    return showErrorList(title, err.message, err.details.map(problemText))
  }
  return showError(title, err instanceof Error ? err.message : 'Ocurrió un error inesperado. Intente de nuevo.')
}

export { problemText }
