import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api-client'

export type ResetDelivery = 'link' | 'email'

/** A reset link: the token to pass on (delivery "link"), or only that it was e-mailed. */
export type IssuedReset = { token?: string; expiresAt: string; emailed: boolean }

/** Issues a one-time password-reset link (one hour) for a student of the tutor's active group. */
export const issuePasswordReset = ({ studentId, delivery }: { studentId: string; delivery: ResetDelivery }) =>
  api.post<IssuedReset>(`/api/admin/students/${encodeURIComponent(studentId)}/password-reset`, { delivery })

export function useIssuePasswordReset() {
  return useMutation({ mutationFn: issuePasswordReset })
}

/** resetLink is the page a reset token opens; the token rides in the fragment, which never reaches a server log. */
export const resetLink = (token: string) => `${window.location.origin}/login#restablecer=${token}`
