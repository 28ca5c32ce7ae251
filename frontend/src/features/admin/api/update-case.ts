import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { Case } from '@/types/api'
import type { CaseBody } from '../lib/case-draft'
import { caseKeys } from './types'

/** updateCase saves a whole case; retiring and reactivating change only its status. */
export const updateCase = ({ id, body }: { id: string; body: CaseBody }) =>
  api.put<Case>(`/api/admin/cases/${encodeURIComponent(id)}`, body)

export function useUpdateCase() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: updateCase,
    onSuccess: (c) => c.id && qc.setQueryData(caseKeys.one(c.id), c),
    onSettled: () => qc.invalidateQueries({ queryKey: caseKeys.all }),
  })
}
