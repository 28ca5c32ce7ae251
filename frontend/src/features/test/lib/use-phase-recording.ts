import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { withLiveTranscript } from '@/features/transcripts/live-take'
import { PhaseRecorder } from '../recording/recorder'
import { cancelSpeech } from '../recording/speech'
import type { UploadQueue } from '../recording/uploader'
import { currentStream, releaseMicrophone, requestMicrophone } from './microphone'
import { RecordingController } from './recording-controller'

// useRecordingController gives the runner its recording controller: a take
// per recorded phase, opened on the shared microphone stream (asked for
// again if it was lost), sent through the attempt's upload queue and, with
// consent, transcribed live. rec is the controller's state for the page.
export function useRecordingController(attemptId: string, queue: UploadQueue) {
  const [recorderError, setRecorderError] = useState<string | null>(null)
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
          attemptId,
          phase: phaseIndex,
          stream,
          queue,
          onError: (e) => setRecorderError(e.message),
        })
        return withLiveTranscript(take, attemptId)
      }),
    [attemptId, queue],
  )
  const rec = useSyncExternalStore(controller.subscribe, controller.getState, controller.getState)

  // Ending a phase stops its take (and any question being read aloud).
  const stopRecording = useCallback(async () => {
    cancelSpeech()
    await controller.set({ phase: null, paused: false })
  }, [controller])
  // "Reintentar" on the recorder card: the microphone again, then the take.
  const retry = useCallback(() => {
    void requestMicrophone().then(() => controller.retry())
  }, [controller])

  return { controller, rec, recorderError, stopRecording, retry }
}

// useRecorderFollowsPhase keeps the takes in step with the attempt: the
// phase to record (null for none) and the pause. A reload lands here with the
// phase still running: it gets a new take (a new part). The microphone is
// opened while a recorded phase lies ahead, and turned off after the last
// one; leaving the page ends the take (what was recorded is kept and sent)
// and turns the microphone off.
export function useRecorderFollowsPhase(controller: RecordingController, phase: number | null, paused: boolean, recordingAhead: boolean) {
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])

  useEffect(() => {
    void controller.set({ phase, paused })
  }, [controller, phase, paused])

  useEffect(
    () => () => {
      cancelSpeech()
      void controller.set({ phase: null, paused: false }).then(() => {
        if (!mounted.current) releaseMicrophone()
      })
    },
    [controller],
  )

  useEffect(() => {
    if (recordingAhead) {
      if (!currentStream()) void requestMicrophone()
    } else {
      void controller.set({ phase: null, paused: false }).then(releaseMicrophone)
    }
  }, [recordingAhead, controller])
}
