import { useState } from 'react'
import { Button } from '@/components/ui/Button'
import { RubricForm } from '@/features/attempts/components/RubricForm'
import { showApiError } from '@/lib/errors'
import { sleep } from '@/lib/retry'
import type { Attempt, Levels } from '@/types/api'
import { submitSelfAssessment, useSetAttempt } from '../../api/attempt-actions'
import { forgetLocalNotes } from '../../lib/notes'
import { uploadsSettled } from '../../lib/upload-text'
import type { UploadQueue, UploadStatus } from '../../recording/uploader'
import { UploadStatusLine } from '../UploadStatusLine'

// How long sending the self-assessment waits for the recordings still
// uploading: a recording must be registered before the attempt finishes.
const UPLOAD_WAIT_MS = 30_000

type Props = { a: Attempt; queue: UploadQueue; upload: UploadStatus }

// SelfAssessmentPhase: the student rates every criterion of the rubric and
// sends it, once what was recorded is on the server (or the wait is over).
export function SelfAssessmentPhase({ a, queue, upload }: Props) {
  const setAttempt = useSetAttempt()
  const [levels, setLevels] = useState<Levels>({})
  const [submitting, setSubmitting] = useState(false)
  const complete = a.rubric.criteria.every((c) => levels[c.id])

  const submit = async () => {
    setSubmitting(true)
    try {
      await Promise.race([queue.flush().catch(() => undefined), sleep(UPLOAD_WAIT_MS)])
      const next = await submitSelfAssessment(a.id, levels)
      forgetLocalNotes(a.id)
      setAttempt(next)
    } catch (e) {
      void showApiError(e, 'No se pudo enviar la autoevaluación')
      setSubmitting(false)
    }
  }

  return (
    <section aria-labelledby="autoevaluacion" className="space-y-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
      <h3 id="autoevaluacion" className="text-xl font-bold text-brand-800">
        Califique su desempeño
      </h3>
      <p className="text-slate-700">
        Elija, para cada criterio, el nivel que mejor describe lo que hizo. Al enviar verá los puntos clave y las bases legales del caso.
      </p>
      <UploadStatusLine queue={queue} />
      <RubricForm rubric={a.rubric} value={levels} onChange={setLevels} legend="Autoevaluación con la rúbrica" />
      <Button onClick={() => void submit()} disabled={!complete || submitting}>
        {submitting ? (uploadsSettled(upload) ? 'Enviando…' : 'Terminando de subir las grabaciones…') : 'Enviar autoevaluación'}
      </Button>
    </section>
  )
}
