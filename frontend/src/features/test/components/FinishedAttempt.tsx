import { useEffect, useMemo, useRef } from 'react'
import { Link } from 'react-router-dom'
import { buttonClass } from '@/components/ui/Button'
import { RevealPanel } from '@/features/attempts/components/RevealPanel'
import { ScoreBadge } from '@/features/attempts/components/ScoreBadge'
import { askedCount } from '@/features/attempts/lib/follow-ups'
import type { Attempt } from '@/types/api'
import { paths } from '@/lib/paths'
import { getUploadQueue } from '../recording/uploader'
import { PhaseTimeline } from './PhaseTimeline'
import { UploadStatusLine } from './UploadStatusLine'

// FinishedAttempt: the self-assessment is in; the case's key points and
// legal bases are shown beside the student's notes, then the result.
export function FinishedAttempt({ a }: { a: Attempt }) {
  const queue = useMemo(() => getUploadQueue(a.id), [a.id])
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => heading.current?.focus(), [])
  return (
    <div className="space-y-6">
      <PhaseTimeline phases={a.phases} current={a.current} />
      <section aria-labelledby="comparacion" className="space-y-4">
        <h2 id="comparacion" ref={heading} tabIndex={-1} className="text-2xl font-bold text-brand-800 focus:outline-none">
          Compare su preparación con el caso
        </h2>
        {a.selfAssessment && (
          <p className="flex flex-wrap items-center gap-2 text-slate-800">
            Su autoevaluación: <ScoreBadge score={a.selfAssessment.score} passScore={a.rubric.passScore} />
          </p>
        )}
        <RevealPanel c={a.case} notes={a.notes} asked={askedCount(a.phases)} />
      </section>
      <UploadStatusLine queue={queue} />
      <div className="flex flex-wrap gap-3">
        <Link to={paths.result(a.id)} className={buttonClass('primary')}>
          Ver resultado
        </Link>
        <Link to={paths.test} className={buttonClass('outline')}>
          Practicar de nuevo
        </Link>
      </div>
    </div>
  )
}
