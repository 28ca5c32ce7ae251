import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

/** A reset link e-mailed to the student; nobody else sees it. */
export type IssuedReset = { expiresAt: string; emailed: boolean }

/** E-mails a one-time password-reset link (one hour) to a student of the tutor's active group. */
export const issuePasswordReset = ({ studentId }: { studentId: string }) =>
  api.post<IssuedReset>(`/api/admin/students/${encodeURIComponent(studentId)}/password-reset`, {})

export function useIssuePasswordReset() {
  return useMutation({ mutationFn: issuePasswordReset })
}
