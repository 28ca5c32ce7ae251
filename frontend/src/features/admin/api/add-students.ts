import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api-client'
import type { AddStudentsRequest, AddStudentsResult } from '@/types/api'
import { groupKeys } from './types'

export type { AddStudentsResult }

export type AddStudentsInput = { file: File } | { emails: string[] }

export const addStudents = (input: AddStudentsInput) => {
  if ('file' in input) {
    const form = new FormData()
    form.append('file', input.file)
    return api.post<AddStudentsResult>('/api/admin/group/students/file', form)
  }
  return api.post<AddStudentsResult>('/api/admin/group/students', { emails: input.emails } satisfies AddStudentsRequest)
}

export function useAddStudents() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: addStudents,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: groupKeys.all })
      void qc.invalidateQueries({ queryKey: groupKeys.students })
    },
  })
}
