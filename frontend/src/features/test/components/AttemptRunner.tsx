import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { Button } from '@/components/ui/Button'
import { Notice } from '@/components/ui/Notice'
import { phaseName } from '@/lib/attempts'
import { confirmAction, preloadDialogs } from '@/lib/dialogs'
import { showApiError } from '@/lib/errors'
import type { Attempt } from '@/types/api'
import { abandonAttempt, advancePhase, fetchAttempt, pauseAttempt, resumeAttempt, skipPhase, useSetAttempt } from '../api/attempt-actions'
import { releaseMicrophone, requestMicrophone, useMicrophone } from '../lib/microphone'
import { forgetLocalNotes } from '../lib/notes'
import { recordingState } from '../lib/recording-state'
import { phaseInstruction } from '../lib/timeline'
import { uploadSummary } from '../lib/upload-text'
import { usePhaseAnnouncement } from '../lib/use-phase-announcement'
import { usePhaseClock } from '../lib/use-phase-clock'
import { usePhaseMove, type MoveKind } from '../lib/use-phase-move'
import { useRecorderFollowsPhase, useRecordingController } from '../lib/use-phase-recording'
import { useRunnerUploads } from '../lib/use-runner-uploads'
import { speak } from '../recording/speech'
import { paths } from '@/lib/paths'
import { notesToShow } from './NotesPad'
import { PhaseTimeline } from './PhaseTimeline'
import { RecordingPanel } from './RecordingPanel'
import { StickyPhaseBar } from './StickyPhaseBar'
import { PhaseCard } from './phases/PhaseCard'
import { PreparationPhase } from './phases/PreparationPhase'
import { QuestionPhase } from './phases/QuestionPhase'
import { SelfAssessmentPhase } from './phases/SelfAssessmentPhase'
import { SpokenPhase } from './phases/SpokenPhase'

// AttemptRunner runs an attempt in progress, phase by phase, as the server
// states them: the clock, the takes, the moves between phases, pausing,
// skipping and abandoning. Each phase's own content is its component.
export function AttemptRunner({ a }: { a: Attempt }) {
  const setAttempt = useSetAttempt()
  const navigate = useNavigate()
  const { queue, upload, resumed } = useRunnerUploads(a.id)
  const { cur, phase, paused, secondsLeft, expired, warning } = usePhaseClock(a)
  const mic = useMicrophone()
  const { controller, rec, recorderError, stopRecording, retry } = useRecordingController(a.id, queue)
  const [toggling, setToggling] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  const phaseCard = useRef<HTMLElement>(null)
  const training = a.mode === 'entrenamiento'

  // Ending a phase (lib/use-phase-move): stop its take, then tell the server.
  const send = useCallback((from: number, how: MoveKind) => (how === 'skip' ? skipPhase(a.id, from) : advancePhase(a.id, from)), [a.id])
  const refetch = useCallback(() => fetchAttempt(a.id), [a.id])
  const { move, advancing, connection, exclusive } = usePhaseMove({ cur, stopRecording, send, refetch, apply: setAttempt })

  const recordingAhead = a.phases.slice(cur).some((p) => p.recorded)
  useRecorderFollowsPhase(controller, resumed && phase?.recorded && !advancing ? cur : null, paused, recordingAhead)

  useEffect(preloadDialogs, [])

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
        navigate(paths.result(a.id))
      } catch (e) {
        void showApiError(e, 'No se pudo abandonar el intento')
      }
    })
  }

  const timed = phase.limitSec > 0
  // The card, the phase text and the sticky bar tell the same state.
  const recState = recordingState(rec, mic.state)
  const recordedSoFar = a.phases.slice(0, cur + 1).some((p) => p.recorded)
  const recorder = (
    <RecordingPanel rec={rec} mic={mic.state} stream={mic.stream} queue={queue} recorderError={recorderError} onRetry={retry} />
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

      <PhaseCard
        phase={phase}
        cur={cur}
        total={a.phases.length}
        instruction={phaseInstruction(phase, phase.recorded ? recState.key : undefined)}
        secondsLeft={secondsLeft}
        paused={paused}
        training={training}
        advancing={advancing}
        toggling={toggling}
        onAdvance={() => void move(cur, 'advance')}
        onTogglePause={() => void togglePause()}
        onSkip={() => void skip()}
        cardRef={phaseCard}
        headingRef={heading}
      />

      {phase.kind === 'preparation' && <PreparationPhase a={a} />}
      {(phase.kind === 'presentation' || phase.kind === 'closing') && (
        <SpokenPhase a={a} kind={phase.kind} notes={notes} recorder={recorder} />
      )}
      {(phase.kind === 'think' || phase.kind === 'answer') && (
        <QuestionPhase a={a} kind={phase.kind} number={phase.index} question={question} notes={notes} recorder={recorder} />
      )}
      {phase.kind === 'self_assessment' && <SelfAssessmentPhase a={a} queue={queue} upload={upload} />}

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
