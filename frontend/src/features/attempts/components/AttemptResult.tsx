import { Card } from '@/components/ui/Card'
import { EvidencePanel } from '@/features/transcripts/components/EvidencePanel'
import { formatDateTime } from '@/lib/format'
import { modeName, statusName } from '@/lib/attempts'
import type { Attempt } from '@/types/api'
import { CaseFacts } from './CaseFacts'
import { PhaseTimesTable } from './PhaseTimesTable'
import { RecordingsList } from './RecordingsList'
import { RevealPanel } from './RevealPanel'
import { RubricTable } from './RubricTable'
import { ScoreBadge } from './ScoreBadge'
import { askedCount } from '../lib/follow-ups'

// AttemptResult is an attempt's full record (phase 7): both marks, the
// rubric levels, time per phase, the case with its key points and legal
// bases, the notes, and every recording. Its student may delete a
// recording (the attempt keeps its scores) and correct a transcript until
// the tutor grades the attempt.
export function AttemptResult({ attempt: a, canDelete }: { attempt: Attempt; canDelete: boolean }) {
  return (
    <div className="space-y-6">
      <Card title="Resumen">
        <dl className="grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <dt className="text-slate-700">Modo</dt>
            <dd className="font-semibold text-slate-900">{modeName(a.mode)}</dd>
          </div>
          <div>
            <dt className="text-slate-700">Estado</dt>
            <dd className="font-semibold text-slate-900">{statusName(a.status)}</dd>
          </div>
          <div>
            <dt className="text-slate-700">Inicio</dt>
            <dd className="font-semibold text-slate-900">{formatDateTime(a.createdAt)}</dd>
          </div>
          <div>
            <dt className="text-slate-700">Fin</dt>
            <dd className="font-semibold text-slate-900">{formatDateTime(a.finishedAt)}</dd>
          </div>
        </dl>
        <div className="mt-5 flex flex-wrap gap-3">
          <ScoreBadge score={a.selfAssessment?.score} passScore={a.rubric.passScore} label="Autoevaluación" />
          {a.tutorGrade ? (
            <ScoreBadge score={a.tutorGrade.score} passScore={a.rubric.passScore} label="Tutor" />
          ) : (
            a.status === 'finished' && <span className="self-center text-sm text-slate-700">Pendiente de calificación del tutor.</span>
          )}
        </div>
        {a.tutorGrade && (
          <div className="mt-4 rounded-xl bg-brand-50 p-4 ring-1 ring-brand-200">
            <h3 className="font-semibold text-brand-900">Comentarios del tutor</h3>
            <p className="mt-1 whitespace-pre-line text-slate-800">{a.tutorGrade.comments || 'Sin comentarios.'}</p>
            <p className="mt-2 text-xs text-slate-700">
              {a.tutorGrade.byName || a.tutorGrade.by} · {formatDateTime(a.tutorGrade.at)}
            </p>
          </div>
        )}
      </Card>

      <Card title="Grabaciones">
        {/* Once graded, the tutor has the final word on the transcripts. */}
        <RecordingsList attempt={a} canDelete={canDelete} canEditTranscripts={canDelete && !a.tutorGrade} />
      </Card>

      {(a.selfAssessment || a.tutorGrade) && (
        <Card title="Rúbrica">
          <RubricTable rubric={a.rubric} self={a.selfAssessment?.levels} tutor={a.tutorGrade?.levels} />
        </Card>
      )}

      {a.evidence && (
        <Card>
          <EvidencePanel evidence={a.evidence} phases={a.phases} />
        </Card>
      )}

      <Card title="Tiempo por fase">
        <PhaseTimesTable phases={a.phases} />
      </Card>

      <Card title="Caso">
        <CaseFacts c={a.case} headingLevel={3} />
      </Card>

      {a.status === 'finished' ? (
        <section aria-labelledby="comparacion-resultado" className="space-y-3">
          <h2 id="comparacion-resultado" className="text-lg font-bold text-brand-800">
            Puntos clave, bases legales y sus notas
          </h2>
          <RevealPanel c={a.case} notes={a.notes} asked={askedCount(a.phases)} headingLevel={3} />
        </section>
      ) : (
        <Card title="Sus notas">
          {a.notes.trim() ? (
            <p className="font-mono text-sm leading-relaxed whitespace-pre-wrap text-slate-800">{a.notes}</p>
          ) : (
            <p className="text-slate-700">Sin notas.</p>
          )}
        </Card>
      )}
    </div>
  )
}
