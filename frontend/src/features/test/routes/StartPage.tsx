import { LiveTranscriptionOption } from '@/features/transcripts/components/LiveTranscriptionOption'
import { useEffect, useId, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router-dom'
import { Button, buttonClass } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { useQueryClient } from '@tanstack/react-query'
import { attemptKeys, difficultyName, examLength, modeName } from '@/lib/attempts'
import type { Difficulty, Mode } from '@/types/api'
import { isNoActiveGroup } from '@/lib/api-client'
import { showApiError } from '@/lib/errors'
import { paths } from '@/lib/paths'
import { startAttempt } from '../api/attempt-actions'
import { useOverview } from '../api/overview'
import { DeviceCheck } from '../components/DeviceCheck'
import { PendingUploadsNotice } from '../components/PendingUploadsNotice'
import { spokenDuration } from '../lib/clock'
import { blueprintRows } from '../lib/timeline'
import { inputBase } from '@/components/ui/input'

const method = [
  ['Sorteo', 'Se sortea un caso de la carrera (en entrenamiento puede elegir el área del derecho y la dificultad).'],
  ['Preparación', 'Lee los hechos y las preguntas del caso y prepara su exposición con una guía de notas.'],
  ['Exposición', 'Expone el caso ante el tribunal; se graba y el tiempo es limitado.'],
  ['Preguntas del tribunal', 'Escucha cada pregunta, piensa unos segundos y responde; cada respuesta se graba.'],
  ['Cierre', 'Hace un breve alegato de cierre, también grabado.'],
  ['Autoevaluación', 'Se califica con la rúbrica y luego compara con los puntos clave y las bases legales del caso.'],
] as const

const modes: { mode: Mode; title: string; text: string }[] = [
  {
    mode: 'entrenamiento',
    title: 'Entrenamiento',
    text: 'Con la guía de estructura a la vista; puede pausar, saltar fases y elegir el área del derecho y la dificultad.',
  },
  { mode: 'simulacro', title: 'Simulacro', text: 'Una sola toma, sin pausas, la secuencia real.' },
]

// StartPage is /test: the method, the mode, the timings, then the
// microphone check and the draw. When the server says the student's group is
// no longer active (finalized while the app kept the old session), the page
// goes to /auth/carreras as the guard would; the api-client has the session
// refreshed meanwhile.
export function StartPage() {
  const overview = useOverview()
  const navigate = useNavigate()
  const qc = useQueryClient()
  // A link from a course (LTI deep linking) opens /test?modo=…&area=…&dificultad=…
  // with its choice made; the student may still change it.
  const [params] = useSearchParams()
  const linked = params.get('modo')
  const linkedDifficulty = params.get('dificultad')
  const [mode, setMode] = useState<Mode | null>(linked === 'entrenamiento' || linked === 'simulacro' ? linked : null)
  const [chosenArea, setArea] = useState(params.get('area') ?? '')
  const [difficulty, setDifficulty] = useState<Difficulty | ''>(
    linkedDifficulty === 'basico' || linkedDifficulty === 'intermedio' || linkedDifficulty === 'avanzado' ? linkedDifficulty : '',
  )
  const [directed, setDirected] = useState(false)
  const [step, setStep] = useState<'choose' | 'check'>('choose')
  const [starting, setStarting] = useState(false)
  const ids = { mode: useId(), directed: useId(), area: useId(), difficulty: useId(), method: useId(), timings: useId() }

  const noGroup = isNoActiveGroup(overview.error)
  // A failed refetch keeps the old data; it must not be offered any more.
  const o = noGroup ? undefined : overview.data
  const chosen: Mode = mode ?? o?.blueprint.defaultMode ?? 'entrenamiento'
  // An area the degree's bank does not have (a stale link) means any.
  const area = o?.areas.includes(chosenArea) ? chosenArea : ''

  useEffect(() => {
    if (noGroup) navigate(paths.carreras, { replace: true })
  }, [noGroup, navigate])

  const start = async () => {
    setStarting(true)
    try {
      const a = await startAttempt(chosen, area, difficulty, chosen === 'entrenamiento' && directed)
      qc.setQueryData(attemptKeys.one(a.id), a)
      void qc.invalidateQueries({ queryKey: ['exam', 'overview'] })
      // The attempt page shows why a directed draw chose this case.
      navigate(paths.attempt(a.id), a.directed ? { state: { directedReason: a.directed.reason } } : undefined)
    } catch (e) {
      setStarting(false)
      if (isNoActiveGroup(e)) {
        navigate(paths.carreras, { replace: true })
        return
      }
      void showApiError(e, 'No se pudo iniciar el intento')
    }
  }

  return (
    <>
      <PageHeader title="Simulador" subtitle="Practique el examen complexivo oral con la secuencia y los tiempos reales." />
      <div className="mx-auto max-w-6xl space-y-6 px-4 py-8 sm:px-6">
        <PendingUploadsNotice />
        {(overview.isPending || noGroup) && <Spinner label="Cargando el simulador…" />}
        {overview.isError && !noGroup && <Notice tone="error">No se pudo cargar el simulador. {overview.error.message}</Notice>}
        {o?.inProgress && (
          <Notice tone="warn">
            <p className="font-semibold">Tiene un intento en curso.</p>
            <p className="mt-1">
              {modeName(o.inProgress.mode)} · {o.inProgress.caseTitle}. Termínelo o abandónelo antes de sortear otro caso.
            </p>
            <Link to={paths.attempt(o.inProgress.id)} className={buttonClass('primary', 'mt-3')}>
              Continuar intento
            </Link>
          </Notice>
        )}
        {o && step === 'choose' && (
          <>
            <Card title={<span id={ids.method}>Cómo funciona</span>}>
              <ol className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-labelledby={ids.method}>
                {method.map(([name, text], i) => (
                  <li key={name} className="flex gap-3">
                    <span
                      aria-hidden="true"
                      className="flex size-7 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white"
                    >
                      {i + 1}
                    </span>
                    <span>
                      <span className="block font-semibold text-slate-900">{name}</span>
                      <span className="text-sm text-slate-700">{text}</span>
                    </span>
                  </li>
                ))}
              </ol>
              <p className="mt-4 text-slate-700">
                Al final se califica con la rúbrica de {o.degree.nombre}: contenido (70 puntos) y formalidades (30 puntos).{' '}
                <Link to={paths.rubrica} className="font-semibold text-brand-700 underline hover:text-brand-800">
                  Lea la rúbrica
                </Link>{' '}
                para saber qué se evalúa.
              </p>
            </Card>

            {!o.inProgress && (
              <Card title="Nuevo intento">
                <form
                  className="space-y-6"
                  onSubmit={(e) => {
                    e.preventDefault()
                    setStep('check')
                  }}
                >
                  <fieldset>
                    <legend id={ids.mode} className="mb-3 font-semibold text-slate-900">
                      Modo
                    </legend>
                    <div className="grid gap-3 sm:grid-cols-2">
                      {modes.map((m) => (
                        <label
                          key={m.mode}
                          className={`flex cursor-pointer gap-3 rounded-xl border-2 p-4 has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-gold-400 ${
                            chosen === m.mode ? 'border-brand-700 bg-brand-50' : 'border-slate-300 bg-white hover:bg-slate-50'
                          }`}
                        >
                          <input
                            type="radio"
                            name="modo"
                            value={m.mode}
                            checked={chosen === m.mode}
                            onChange={() => setMode(m.mode)}
                            className="mt-1 size-4 shrink-0"
                          />
                          <span>
                            <span className="block font-semibold text-slate-900">{m.title}</span>
                            <span className="text-sm text-slate-700">{m.text}</span>
                          </span>
                        </label>
                      ))}
                    </div>
                  </fieldset>

                  {chosen === 'entrenamiento' && (
                    <div className="flex gap-3">
                      <input
                        id={ids.directed}
                        type="checkbox"
                        checked={directed}
                        onChange={(e) => setDirected(e.target.checked)}
                        aria-describedby={`${ids.directed}-help`}
                        className="mt-1 size-4 shrink-0"
                      />
                      <div>
                        <label htmlFor={ids.directed} className="font-semibold text-slate-900">
                          Sorteo dirigido
                        </label>
                        <p id={`${ids.directed}-help`} className="text-sm text-slate-700">
                          El caso se sortea del área y la dificultad en que sus resultados recientes son más bajos (primero la nota del
                          tutor, luego su autoevaluación), sin repetir los casos de sus últimos intentos.
                        </p>
                      </div>
                    </div>
                  )}
                  {chosen === 'entrenamiento' && !directed && (
                    <div className="grid gap-4 sm:grid-cols-2">
                      <div>
                        <label htmlFor={ids.area} className="mb-1 block font-semibold text-slate-900">
                          Área del derecho
                        </label>
                        <select
                          id={ids.area}
                          value={area}
                          onChange={(e) => setArea(e.target.value)}
                          className={`min-h-11 w-full max-w-sm ${inputBase} px-3`}
                        >
                          <option value="">Todas las áreas</option>
                          {o.areas.map((a) => (
                            <option key={a} value={a}>
                              {a}
                            </option>
                          ))}
                        </select>
                      </div>
                      <div>
                        <label htmlFor={ids.difficulty} className="mb-1 block font-semibold text-slate-900">
                          Dificultad
                        </label>
                        <select
                          id={ids.difficulty}
                          value={difficulty}
                          onChange={(e) => setDifficulty(e.target.value as Difficulty | '')}
                          className={`min-h-11 w-full max-w-sm ${inputBase} px-3`}
                        >
                          <option value="">Todas las dificultades</option>
                          {(o.difficulties ?? []).map((d) => (
                            <option key={d.value} value={d.value}>
                              {d.label}
                            </option>
                          ))}
                        </select>
                      </div>
                    </div>
                  )}
                  {chosen === 'simulacro' && (
                    <p className="text-sm text-slate-700">
                      En el simulacro el caso se sortea entre todas las áreas según la combinación de dificultades de la carrera:{' '}
                      {o.blueprint.difficultyMix
                        ? `${o.blueprint.difficultyMix.basico} % básico, ${o.blueprint.difficultyMix.intermedio} % intermedio y ${o.blueprint.difficultyMix.avanzado} % avanzado.`
                        : 'la que definió su tutor.'}
                    </p>
                  )}

                  <div>
                    <h3 id={ids.timings} className="mb-2 font-semibold text-slate-900">
                      Tiempos de {o.degree.nombre}
                    </h3>
                    <dl aria-labelledby={ids.timings} className="grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
                      {blueprintRows(o.blueprint).map((r) => (
                        <div key={r.label} className="rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200">
                          <dt className="text-sm text-slate-700">{r.label}</dt>
                          <dd className="font-semibold text-slate-900">
                            {spokenDuration(r.seconds)}
                            {r.note && <span className="block text-sm font-normal text-slate-700">{r.note}</span>}
                          </dd>
                        </div>
                      ))}
                    </dl>
                    <p className="mt-2 text-sm text-slate-700">
                      Total aproximado: {spokenDuration(examLength(o.blueprint))}, más la autoevaluación.
                    </p>
                  </div>

                  <LiveTranscriptionOption />

                  <Button type="submit">Continuar</Button>
                </form>
              </Card>
            )}
          </>
        )}
        {o && step === 'check' && !o.inProgress && (
          <Card>
            <p className="mb-4 text-sm text-slate-700">
              Modo elegido: <strong>{modeName(chosen)}</strong>
              {chosen === 'entrenamiento' && directed && ' · Sorteo dirigido'}
              {chosen === 'entrenamiento' && !directed && (
                <>
                  {` · Área: ${area || 'todas'}`}
                  {` · Dificultad: ${difficulty ? difficultyName(difficulty) : 'todas'}`}
                </>
              )}
            </p>
            <DeviceCheck onReady={() => void start()} starting={starting} onBack={() => setStep('choose')} />
          </Card>
        )}
      </div>
    </>
  )
}
