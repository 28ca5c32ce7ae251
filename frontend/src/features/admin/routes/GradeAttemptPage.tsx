import { Link, useParams } from 'react-router-dom'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { useAttempt } from '@/features/attempts/api/get-attempt'
import { modeName, statusName } from '@/lib/attempts'
import type { Attempt } from '@/types/api'
import { PhaseTimesTable } from '@/features/attempts/components/PhaseTimesTable'
import { RubricTable } from '@/features/attempts/components/RubricTable'
import { ScoreBadge } from '@/features/attempts/components/ScoreBadge'
import { formatDateTime } from '@/lib/format'
import { RecordingsList } from '@/features/attempts/components/RecordingsList'
import { EvidencePanel } from '@/features/transcripts/components/EvidencePanel'
import { askedCount } from '@/features/attempts/lib/follow-ups'
import { CaseDetails } from '../components/CaseDetails'
import { GradeForm } from '../components/GradeForm'
import { PageState } from '../components/PageState'
import { ScoreSync } from '../components/ScoreSync'
import { adminPaths } from '@/lib/paths'

// GradeAttemptPage is /admin/calificar/:attemptId: everything the tutor
// needs to grade one attempt, with the recordings beside the rubric.
export function GradeAttemptPage() {
  const { attemptId = '' } = useParams()
  const q = useAttempt(attemptId)
  const back = (
    <p className="flex flex-wrap gap-x-6 gap-y-2">
      <Link to={adminPaths.grading} className="font-semibold text-brand-700 underline">
        ← Volver a Calificar
      </Link>
      {q.data && (
        <Link to={adminPaths.student(q.data.student.id)} className="font-semibold text-brand-700 underline">
          Intentos de {q.data.student.displayName || q.data.student.mail}
        </Link>
      )}
    </p>
  )
  return (
    <PageState query={q} back={back} errorText={() => 'No se encontró el intento, o no pertenece a sus grupos.'}>
      {(a) => (
        <>
          <AttemptHeader a={a} />
          {a.status !== 'finished' ? (
            <Notice>
              {a.status === 'in_progress'
                ? 'El estudiante aún no termina este intento. Podrá calificarlo cuando complete la autoevaluación.'
                : 'El estudiante abandonó este intento; no se califica.'}
            </Notice>
          ) : (
            <>
              <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
                <Card title="Caso">
                  <CaseDetails c={a.case} asked={askedCount(a.phases)} />
                </Card>
                <div className="space-y-6">
                  <Card title="Notas del estudiante">
                    {a.notes.trim() ? (
                      <p
                        className="max-h-[32rem] overflow-y-auto whitespace-pre-wrap text-slate-800"
                        tabIndex={0}
                        aria-label="Notas del estudiante"
                      >
                        {a.notes}
                      </p>
                    ) : (
                      <p className="text-slate-700">El estudiante no tomó notas.</p>
                    )}
                  </Card>
                  <Card title="Tiempo por fase">
                    <PhaseTimesTable phases={a.phases} />
                  </Card>
                </div>
              </div>
              <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
                <div>
                  {/* The recordings stay in view beside the rubric while grading. */}
                  <div className="lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:overflow-y-auto">
                    <Card title="Grabaciones">
                      <RecordingsList attempt={a} canDelete={false} canEditTranscripts />
                    </Card>
                  </div>
                </div>
                <div className="space-y-6">
                  {a.evidence && (
                    <Card>
                      <EvidencePanel evidence={a.evidence} phases={a.phases} />
                    </Card>
                  )}
                  <Card title="Autoevaluación del estudiante">
                    <RubricTable rubric={a.rubric} self={a.selfAssessment?.levels} tutor={a.tutorGrade?.levels} />
                  </Card>
                  <Card>
                    <GradeForm key={a.id} attempt={a} />
                    <ScoreSync attempt={a} />
                  </Card>
                </div>
              </div>
            </>
          )}
        </>
      )}
    </PageState>
  )
}

function AttemptHeader({ a }: { a: Attempt }) {
  const items: [string, string][] = [
    ['Estudiante', a.student.displayName || a.student.mail],
    ['Correo', a.student.mail],
    ['Carrera', a.degreeName],
    ['Área', a.case.area],
    ['Modo', modeName(a.mode)],
    ['Estado', statusName(a.status)],
    ['Empezó', formatDateTime(a.createdAt)],
    ['Terminó', formatDateTime(a.finishedAt)],
  ]
  return (
    <Card title={a.case.title}>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2 lg:grid-cols-4">
        {items.map(([k, v]) => (
          <div key={k}>
            <dt className="text-sm text-slate-600">{k}</dt>
            <dd className="font-semibold break-words text-slate-900">{v}</dd>
          </div>
        ))}
      </dl>
      <div className="mt-4 flex flex-wrap gap-3">
        <ScoreBadge label="Autoevaluación" score={a.selfAssessment?.score} passScore={a.rubric.passScore} />
        <ScoreBadge label="Tutor" score={a.tutorGrade?.score} passScore={a.rubric.passScore} />
      </div>
      {a.tutorGrade?.comments && (
        <div className="mt-4">
          <h3 className="text-sm text-slate-600">Comentarios enviados</h3>
          <p className="whitespace-pre-wrap text-slate-900">{a.tutorGrade.comments}</p>
        </div>
      )}
    </Card>
  )
}
