import { useId, useState, type FormEvent } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/Button'
import { useGradeAttempt } from '@/features/attempts/api/grade-attempt'
import type { Attempt, Levels } from '@/types/api'
import { RubricForm } from '@/features/attempts/components/RubricForm'
import { closeDialog, showError, showLoading, showSuccess } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import { formatDateTime, formatScore } from '@/lib/format'
import { groupKeys } from '../api/types'
import { inputClass } from '@/components/ui/input'

const MAX_COMMENTS = 5000

// GradeForm grades a finished attempt with the rubric it was made with;
// a graded attempt opens with the tutor's levels and comments, to regrade.
export function GradeForm({ attempt }: { attempt: Attempt }) {
  const prev = attempt.tutorGrade
  const [levels, setLevels] = useState<Levels>(prev?.levels ?? {})
  const [comments, setComments] = useState(prev?.comments ?? '')
  const grade = useGradeAttempt()
  const qc = useQueryClient()
  const id = useId()
  const rubric = attempt.rubric
  const self = attempt.selfAssessment

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const missing = rubric.criteria.filter((c) => !levels[c.id])
    if (missing.length > 0) {
      return void showError(
        'Faltan criterios',
        `Califique todos los criterios. Falta: ${missing.map((c) => `${c.id}. ${c.name}`).join('; ')}.`,
      )
    }
    void showLoading('Guardando calificación')
    try {
      await grade.mutateAsync({ attemptId: attempt.id, levels, comments: comments.trim() })
      void qc.invalidateQueries({ queryKey: groupKeys.all })
      await showSuccess('Calificación guardada', 'El estudiante verá la calificación y sus comentarios.')
    } catch (err) {
      await closeDialog()
      await showApiError(err)
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-6" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="text-lg font-bold text-brand-800">
        {prev ? 'Recalificar' : 'Calificar'} con la rúbrica (versión {rubric.version})
      </h2>
      {prev ? (
        <p className="text-slate-700">
          Calificado el {formatDateTime(prev.at)} con {formatScore(prev.score)} / 10. Puede cambiar los niveles o los comentarios; el
          estudiante verá la calificación nueva.
        </p>
      ) : (
        self && (
          <p>
            <Button variant="ghost" className="-ml-3 px-3" onClick={() => setLevels({ ...self.levels })}>
              Partir de la autoevaluación del estudiante
            </Button>
          </p>
        )
      )}
      <RubricForm rubric={rubric} value={levels} onChange={setLevels} legend="Calificación del tutor" />
      <div>
        <label htmlFor={`${id}-comments`} className="block font-medium text-slate-800">
          Comentarios para el estudiante
        </label>
        <textarea
          id={`${id}-comments`}
          rows={6}
          maxLength={MAX_COMMENTS}
          value={comments}
          onChange={(e) => setComments(e.target.value)}
          aria-describedby={`${id}-comments-hint`}
          className={inputClass}
        />
        <p id={`${id}-comments-hint`} className="mt-1 text-sm text-slate-600">
          Qué hizo bien y qué debe mejorar. {comments.length} / {MAX_COMMENTS} caracteres.
        </p>
      </div>
      <Button type="submit" disabled={grade.isPending}>
        {prev ? 'Guardar nueva calificación' : 'Guardar calificación'}
      </Button>
    </form>
  )
}
