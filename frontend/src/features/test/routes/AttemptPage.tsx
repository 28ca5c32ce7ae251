import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { Link, useNavigate, useParams } from 'react-router-dom'
import { Button, buttonClass } from '@/components/ui/Button'
import { Notice } from '@/components/ui/Notice'
import { PageHeader } from '@/components/ui/PageHeader'
import { PageSpinner, Spinner } from '@/components/ui/Spinner'
import { ScoreBadge } from '@/features/attempts/components/ScoreBadge'
import { RubricForm } from '@/features/attempts/components/RubricForm'
import { modeName, phaseName } from '@/lib/attempts'
import type { Attempt, Levels } from '@/types/api'
import { useSession } from '@/features/auth/api/get-session'
import { ApiError } from '@/lib/api-client'
import { sleep } from '@/lib/retry'
import { confirmAction } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import {
  abandonAttempt,
  advancePhase,
  fetchAttempt,
  pauseAttempt,
  resumeAttempt,
  skipPhase,
  submitSelfAssessment,
  useRunnerAttempt,
  useSetAttempt,
} from '../api/attempt-actions'
import { CaseFacts } from '@/features/attempts/components/CaseFacts'
import { Countdown } from '../components/Countdown'
import { NotesPad, notesToShow } from '../components/NotesPad'
import { PhaseTimeline } from '../components/PhaseTimeline'
import { RecordingPanel } from '../components/RecordingPanel'
import { RevealPanel } from '@/features/attempts/components/RevealPanel'
import { askedCount } from '@/features/attempts/lib/follow-ups'
import { StickyPhaseBar } from '../components/StickyPhaseBar'
import { StructureGuide } from '../components/StructureGuide'
import { UploadStatusLine } from '../components/UploadStatusLine'
import { spokenDuration } from '../lib/clock'
import { useAttemptLock } from '../lib/attempt-lock'
import { currentStream, releaseMicrophone, requestMicrophone, useMicrophone } from '../lib/microphone'
import { forgetLocalNotes } from '../lib/notes'
import { RecordingController } from '../lib/recording-controller'
import { withLiveTranscript } from '@/features/transcripts/live-take'
import { finishLabel, phaseInstruction } from '../lib/timeline'
import { uploadsSettled, uploadSummary } from '../lib/upload-text'
import { recordingState } from '../lib/recording-state'
import { usePhaseAnnouncement } from '../lib/use-phase-announcement'
import { usePhaseClock } from '../lib/use-phase-clock'
import { usePhaseMove, type MoveKind } from '../lib/use-phase-move'
import { useRunnerUploads } from '../lib/use-runner-uploads'
import { PhaseRecorder } from '../recording/recorder'
import { cancelSpeech, speak, speechSupported } from '../recording/speech'
import { getUploadQueue, type UploadQueue } from '../recording/uploader'
import { testPaths } from '../paths'

// AttemptPage is /test/intento/:id: it runs the attempt's phases as the
// server states them, then shows the comparison with the case.
export function AttemptPage() {
  const { id = '' } = useParams()
  const q = useRunnerAttempt(id)
  const a = q.data
  const { data: session } = useSession()

  if (q.isPending) return <PageSpinner />
  if (!a) {
    const notFound = q.error instanceof ApiError && q.error.status === 404
    return (
      <>
        <PageHeader title="Simulador" />
        <div className="mx-auto max-w-6xl space-y-4 px-4 py-8 sm:px-6">
          <Notice tone="error">{notFound ? 'El intento no existe.' : `No se pudo cargar el intento. ${q.error?.message ?? ''}`}</Notice>
          <Link to={testPaths.home} className={buttonClass('outline')}>
            Volver al simulador
          </Link>
        </div>
      </>
    )
  }

  return (
    <>
      <PageHeader title={`${modeName(a.mode)}: ${a.case.title}`} subtitle={`${a.degreeName} · ${a.case.area}`} />
      <div className="mx-auto max-w-6xl px-4 py-6 sm:px-6">
        {a.status === 'in_progress' && session?.user && a.student.id !== session.user.id && (
          <div className="space-y-4">
            <Notice tone="info">Este intento es de {a.student.displayName || a.student.mail}; solo su estudiante puede realizarlo.</Notice>
            <Link to={testPaths.result(a.id)} className={buttonClass('outline')}>
              Ver el intento
            </Link>
          </div>
        )}
        {a.status === 'in_progress' && session?.user && a.student.id === session.user.id && <RunnerGate key={a.id} a={a} />}
        {a.status === 'finished' && <Finished a={a} />}
        {a.status === 'abandoned' && (
          <div className="space-y-4">
            <Notice tone="warn">Este intento fue abandonado. Lo grabado hasta ese momento se conserva.</Notice>
            <div className="flex flex-wrap gap-3">
              <Link to={testPaths.result(a.id)} className={buttonClass('outline')}>
                Ver el intento
              </Link>
              <Link to={testPaths.home} className={buttonClass('primary')}>
                Practicar de nuevo
              </Link>
            </div>
          </div>
        )}
      </div>
    </>
  )
}

// Finished: the self-assessment is in; the case's key points and legal
// bases are shown beside the student's notes, then the result.
function Finished({ a }: { a: Attempt }) {
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
        <Link to={testPaths.result(a.id)} className={buttonClass('primary')}>
          Ver resultado
        </Link>
        <Link to={testPaths.home} className={buttonClass('outline')}>
          Practicar de nuevo
        </Link>
      </div>
    </div>
  )
}

// waitForUploads waits (at most ms) until everything recorded is on the
// server: a recording must be registered before the attempt finishes.
async function waitForUploads(queue: UploadQueue, ms: number) {
  await Promise.race([queue.flush().catch(() => undefined), sleep(ms)])
}

// RunnerGate runs the attempt in one tab only (see lib/attempt-lock).
function RunnerGate({ a }: { a: Attempt }) {
  const lock = useAttemptLock(a.id)
  if (lock.state === 'waiting') return <Spinner label="Preparando el intento…" />
  if (lock.state === 'busy')
    return (
      <div className="space-y-4">
        <Notice tone="warn">
          <p className="font-semibold">Este intento está abierto en otra pestaña o ventana.</p>
          <p className="mt-1">Continúe allí, o ciérrela y pulse «Reintentar» para seguir aquí. Así ninguna grabación se pierde.</p>
        </Notice>
        <Button onClick={lock.retry}>Reintentar</Button>
      </div>
    )
  return <Runner a={a} />
}

function Runner({ a }: { a: Attempt }) {
  const setAttempt = useSetAttempt()
  const navigate = useNavigate()
  const { queue, upload, resumed } = useRunnerUploads(a.id)
  const { cur, phase, paused, secondsLeft, expired, warning } = usePhaseClock(a)
  const mic = useMicrophone()
  const [recorderError, setRecorderError] = useState<string | null>(null)
  const [toggling, setToggling] = useState(false)
  const [levels, setLevels] = useState<Levels>({})
  const [submitting, setSubmitting] = useState(false)
  const mounted = useRef(true)
  const heading = useRef<HTMLHeadingElement>(null)
  const phaseCard = useRef<HTMLElement>(null)
  const training = a.mode === 'entrenamiento'

  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  // The recorder follows the phase. A reload lands here with the phase
  // still running: it gets a new take (a new part).
  const controller = useMemo(
    () =>
      new RecordingController(async (phaseIndex) => {
        let stream = currentStream()
        if (!stream) {
          const s = await requestMicrophone()
          stream = s.status === 'ready' ? s.stream : null
          if (!stream) throw new Error(s.status === 'failed' ? s.message : 'No se pudo usar el micrófono.')
        }
        setRecorderError(null)
        const take = await PhaseRecorder.start({
          attemptId: a.id,
          phase: phaseIndex,
          stream,
          queue,
          onError: (e) => setRecorderError(e.message),
        })
        return withLiveTranscript(take, a.id)
      }),
    [a.id, queue],
  )
  const rec = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState)

  // Ending a phase (lib/use-phase-move): stop its take, then tell the server.
  const stopRecording = useCallback(async () => {
    cancelSpeech()
    await controller.set({ phase: null, paused: false })
  }, [controller])
  const send = useCallback((from: number, how: MoveKind) => (how === 'skip' ? skipPhase(a.id, from) : advancePhase(a.id, from)), [a.id])
  const refetch = useCallback(() => fetchAttempt(a.id), [a.id])
  const { move, advancing, connection, exclusive } = usePhaseMove({ cur, stopRecording, send, refetch, apply: setAttempt })

  const wantPhase = resumed && phase?.recorded && !advancing ? cur : null
  useEffect(() => {
    void controller.set({ phase: wantPhase, paused })
  }, [controller, wantPhase, paused])

  // Leaving the page ends the take (what was recorded is kept and sent) and
  // turns the microphone off.
  useEffect(
    () => () => {
      cancelSpeech()
      void controller.set({ phase: null, paused: false }).then(() => {
        if (!mounted.current) releaseMicrophone()
      })
    },
    [controller],
  )

  // The microphone is opened while a recorded phase lies ahead, and turned
  // off after the last one.
  const recordingAhead = a.phases.slice(cur).some((p) => p.recorded)
  useEffect(() => {
    if (recordingAhead) {
      if (!currentStream()) void requestMicrophone()
    } else {
      void controller.set({ phase: null, paused: false }).then(releaseMicrophone)
    }
  }, [recordingAhead, controller])

  // Time is up: stop and advance automatically.
  useEffect(() => {
    if (expired && phase && phase.kind !== 'self_assessment') void move(cur, 'advance')
  }, [expired, cur, phase, move])

  // A new phase and the 2:00 and 0:30 warnings are announced, once each.
  const announcement = usePhaseAnnouncement(cur, phase, warning, heading)

  // The tribunal's question is read aloud in the think time.
  const question = phase && (phase.kind === 'think' || phase.kind === 'answer') ? (a.case.followUps[phase.index - 1] ?? '') : ''
  const spokenFor = useRef<number | null>(null)
  useEffect(() => {
    if (phase?.kind === 'think' && question && spokenFor.current !== cur) {
      spokenFor.current = cur
      void speak(question)
    }
  }, [cur, phase?.kind, question])

  // Read again at each phase: the preparation may have just saved newer notes locally.
  const notes = useMemo(() => (cur >= 0 ? notesToShow(a.id, a.notes) : ''), [a.id, a.notes, cur])

  if (!phase) return null

  const togglePause = async () => {
    setToggling(true)
    try {
      setAttempt(paused ? await resumeAttempt(a.id) : await pauseAttempt(a.id))
    } catch (e) {
      void showApiError(e, paused ? 'No se pudo reanudar' : 'No se pudo pausar')
    } finally {
      setToggling(false)
    }
  }

  const skip = async () => {
    if (!(await confirmAction('¿Saltar esta fase?', 'Pasará a la siguiente fase. Lo grabado en esta fase se conserva.', 'Sí, saltar')))
      return
    void move(cur, 'skip')
  }

  const abandon = async () => {
    const ok = await confirmAction(
      '¿Abandonar el intento?',
      'El intento terminará sin nota y no podrá continuarlo. Lo grabado hasta ahora se conserva.' +
        (training ? '' : ' Su próximo simulacro será con este mismo caso.'),
      'Sí, abandonar',
    )
    if (!ok) return
    await exclusive(async () => {
      try {
        await controller.set({ phase: null, paused: false })
        const next = await abandonAttempt(a.id)
        releaseMicrophone()
        forgetLocalNotes(a.id)
        setAttempt(next)
        navigate(testPaths.result(a.id))
      } catch (e) {
        void showApiError(e, 'No se pudo abandonar el intento')
      }
    })
  }

  const submit = async () => {
    setSubmitting(true)
    try {
      await waitForUploads(queue, 30_000)
      const next = await submitSelfAssessment(a.id, levels)
      forgetLocalNotes(a.id)
      setAttempt(next)
    } catch (e) {
      void showApiError(e, 'No se pudo enviar la autoevaluación')
      setSubmitting(false)
    }
  }

  const timed = phase.limitSec > 0
  // The card, the phase text and the sticky bar tell the same state.
  const recState = recordingState(rec, mic.state)
  const recordedSoFar = a.phases.slice(0, cur + 1).some((p) => p.recorded)
  const complete = a.rubric.criteria.every((c) => levels[c.id])
  const recordingPanel = (
    <RecordingPanel
      rec={rec}
      mic={mic.state}
      stream={mic.stream}
      queue={queue}
      recorderError={recorderError}
      onRetry={() => {
        void requestMicrophone().then(() => controller.retry())
      }}
    />
  )

  return (
    <div className="space-y-6">
      <PhaseTimeline phases={a.phases} current={cur} />
      <p aria-live="assertive" aria-atomic="true" className="sr-only">
        {announcement}
      </p>
      {connection && <Notice tone="warn">{connection}</Notice>}
      {mic.state.status === 'failed' && recordingAhead && !phase.recorded && (
        <Notice tone="error">
          <p className="font-semibold">El micrófono no está disponible; las fases siguientes se graban.</p>
          <p className="mt-1">{mic.state.message}</p>
          <Button variant="outline" className="mt-3" onClick={() => void requestMicrophone()}>
            Probar el micrófono otra vez
          </Button>
        </Notice>
      )}

      <section ref={phaseCard} aria-labelledby="fase-actual" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div className="max-w-2xl">
            <p className="text-sm font-semibold text-brand-700">
              Fase {cur + 1} de {a.phases.length}
            </p>
            <h2 id="fase-actual" ref={heading} tabIndex={-1} className="text-2xl font-bold text-slate-900 focus:outline-none">
              {phaseName(phase)}
            </h2>
            <p className="mt-1 text-slate-700">{phaseInstruction(phase, phase.recorded ? recState.key : undefined)}</p>
          </div>
          {timed && secondsLeft !== null && <Countdown remainingMs={secondsLeft * 1000} limitSec={phase.limitSec} paused={paused} />}
        </div>
        {paused && (
          <div className="mt-4">
            <Notice tone="info">Intento en pausa: el tiempo está detenido. Pulse «Reanudar» para continuar.</Notice>
          </div>
        )}
        {phase.kind !== 'self_assessment' && (
          <div className="mt-5 flex flex-wrap gap-3">
            <Button onClick={() => void move(cur, 'advance')} disabled={advancing}>
              {advancing ? 'Pasando a la siguiente fase…' : finishLabel(phase)}
            </Button>
            {training && timed && (
              <Button variant="outline" onClick={() => void togglePause()} disabled={toggling || advancing}>
                {paused ? 'Reanudar' : 'Pausar'}
              </Button>
            )}
            {training && (
              <Button variant="outline" onClick={() => void skip()} disabled={advancing}>
                Saltar fase
              </Button>
            )}
          </div>
        )}
      </section>

      {phase.kind === 'preparation' && (
        <div className="grid gap-6 lg:grid-cols-2">
          <section aria-label="Caso" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <CaseFacts c={a.case} />
          </section>
          <section aria-label="Notas" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <NotesPad attemptId={a.id} serverNotes={a.notes} />
          </section>
        </div>
      )}

      {(phase.kind === 'presentation' || phase.kind === 'closing') && (
        <div className={`grid gap-6 ${training && phase.kind === 'presentation' ? 'lg:grid-cols-[2fr_1fr]' : ''}`}>
          <div className="space-y-4">
            {recordingPanel}
            <CaseAndNotes a={a} notes={notes} />
          </div>
          {training && phase.kind === 'presentation' && <StructureGuide />}
        </div>
      )}

      {(phase.kind === 'think' || phase.kind === 'answer') && (
        <div className="space-y-4">
          <section aria-labelledby="pregunta" className="rounded-2xl bg-brand-50 p-5 ring-1 ring-brand-200">
            <h3 id="pregunta" className="text-sm font-semibold tracking-wide text-brand-800 uppercase">
              Pregunta {phase.index} del tribunal
            </h3>
            <p className="mt-2 text-xl font-semibold text-slate-900">{question}</p>
            {speechSupported() && (
              <Button variant="outline" className="mt-3" onClick={() => void speak(question)}>
                Escuchar la pregunta
              </Button>
            )}
            {phase.kind === 'think' && (
              <p className="mt-3 text-slate-700">
                Luego tendrá {spokenDuration(a.blueprint.answerSec)} para responder; la respuesta se grabará.
              </p>
            )}
          </section>
          {phase.kind === 'answer' && recordingPanel}
          <CaseAndNotes a={a} notes={notes} />
        </div>
      )}

      {phase.kind === 'self_assessment' && (
        <section aria-labelledby="autoevaluacion" className="space-y-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6">
          <h3 id="autoevaluacion" className="text-xl font-bold text-brand-800">
            Califique su desempeño
          </h3>
          <p className="text-slate-700">
            Elija, para cada criterio, el nivel que mejor describe lo que hizo. Al enviar verá los puntos clave y las bases legales del
            caso.
          </p>
          <UploadStatusLine queue={queue} />
          <RubricForm rubric={a.rubric} value={levels} onChange={setLevels} legend="Autoevaluación con la rúbrica" />
          <Button onClick={() => void submit()} disabled={!complete || submitting}>
            {submitting ? (uploadsSettled(upload) ? 'Enviando…' : 'Terminando de subir las grabaciones…') : 'Enviar autoevaluación'}
          </Button>
        </section>
      )}

      <StickyPhaseBar
        target={phaseCard}
        label={phaseName(phase)}
        secondsLeft={timed ? secondsLeft : null}
        limitSec={phase.limitSec}
        paused={paused}
        recording={phase.recorded ? { key: recState.key, text: recState.text, problem: recState.problem !== null } : null}
        upload={recordedSoFar ? uploadSummary(upload) : null}
      />
      <div className="border-t border-slate-200 pt-4 pb-12">
        <Button variant="ghost" onClick={() => void abandon()} className="text-red-800 hover:bg-red-50">
          Abandonar intento
        </Button>
      </div>
    </div>
  )
}

// CaseAndNotes keeps the case and the notes at hand during the spoken phases.
function CaseAndNotes({ a, notes }: { a: Attempt; notes: string }) {
  return (
    <div className="space-y-3">
      <details className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
        <summary className="cursor-pointer font-semibold text-brand-800">Ver el caso</summary>
        <div className="mt-3">
          <CaseFacts c={a.case} headingLevel={3} />
        </div>
      </details>
      <details className="rounded-xl bg-white p-4 ring-1 ring-slate-200">
        <summary className="cursor-pointer font-semibold text-brand-800">Ver sus notas</summary>
        {notes.trim() ? (
          <p className="mt-3 font-mono text-sm leading-relaxed whitespace-pre-wrap text-slate-800">{notes}</p>
        ) : (
          <p className="mt-3 text-slate-700">No escribió notas.</p>
        )}
      </details>
    </div>
  )
}
