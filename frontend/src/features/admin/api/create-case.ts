import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Case } from '@/types/api'
import type { CaseBody } from '../lib/case-draft'
import { caseKeys } from './types'

export const createCase = (body: CaseBody) => api.post<Case>('/api/admin/cases', body)

export function useCreateCase() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: createCase,
    onSettled: () => qc.invalidateQueries({ queryKey: caseKeys.all }),
  })
}
