// The export is a file download: a plain link, no fetch.
export type ExportFormat = 'json' | 'csv'

export function casesExportUrl(format: ExportFormat, degree = '') {
  const params = new URLSearchParams({ format })
  if (degree) params.set('degree', degree)
  return `/api/admin/cases/export?${params.toString()}`
}
