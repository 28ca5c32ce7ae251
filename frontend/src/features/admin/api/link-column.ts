import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { LtiColumnRequest, LtiLinkedColumn } from '@/types/api'
import { ltiKeys } from './lti-types'

/** id: a column of the course; undefined creates the "Simulacro oral" column. */
export const linkColumn = (id?: string) =>
  api.post<LtiLinkedColumn>('/api/admin/lti/line-item', { id: id ?? '' } satisfies LtiColumnRequest)

export function useLinkColumn() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: linkColumn,
    onSettled: () => qc.invalidateQueries({ queryKey: ltiKeys.all }),
  })
}
