import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import { ltiKeys, type LtiColumn } from './lti-types'

/** id: a column of the course; undefined creates the "Simulacro oral" column. */
export const linkColumn = (id?: string) => api.post<{ column: LtiColumn }>('/api/admin/lti/line-item', { id: id ?? '' })

export function useLinkColumn() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: linkColumn,
    onSettled: () => qc.invalidateQueries({ queryKey: ltiKeys.all }),
  })
}
