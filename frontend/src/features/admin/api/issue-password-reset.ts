import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { IssuedReset } from '@/types/api'

export type { IssuedReset }

/** E-mails a one-time password-reset link (one hour) to a student of the tutor's active group. */
export const issuePasswordReset = ({ studentId }: { studentId: string }) =>
  api.post<IssuedReset>(`/api/admin/students/${encodeURIComponent(studentId)}/password-reset`, {})

export function useIssuePasswordReset() {
  return useMutation({ mutationFn: issuePasswordReset })
}
