import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { caseKeys, type ImportCasesResult } from './types'

/** importCases sends a .json or .csv file; the server writes all of it or nothing. */
export const importCases = (file: File) => {
  const form = new FormData()
  form.append('file', file)
  return api.post<ImportCasesResult>('/api/admin/cases/import', form)
}

export function useImportCases() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: importCases,
    onSettled: () => qc.invalidateQueries({ queryKey: caseKeys.all }),
  })
}
