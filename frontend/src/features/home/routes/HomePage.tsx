import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from 'react-router-dom'
import { Button } from '@/components/ui/Button'
import { sessionQueryOptions } from '@/features/auth/api/get-session'
import { useMicrosoftSignIn } from '@/features/auth/lib/use-microsoft-sign-in'
import { useAppConfig } from '@/lib/config'
import { paths } from '@/lib/paths'

const phases = [
  ['Sorteo del caso', 'Se asigna un caso al azar del banco de su carrera, como en el examen real.'],
  ['Preparación', 'Lee los hechos y las preguntas, y organiza su exposición con una guía de estructura.'],
  ['Exposición', 'Presenta el caso ante el tribunal, con tiempo limitado y grabación de su voz.'],
  ['Preguntas del tribunal', 'Responde preguntas de seguimiento sobre la norma, la contraparte y la vía procesal.'],
  ['Evaluación', 'Se autoevalúa con la rúbrica y compara su análisis con los puntos clave y las bases legales del caso.'],
] as const

export function HomePage() {
  const navigate = useNavigate()
  const qc = useQueryClient()
  const { data: config } = useAppConfig()
  const microsoft = useMicrosoftSignIn({ onNotConfigured: () => navigate(paths.login) })
  const videoUrl = config?.site.introVideoUrl

  // Exámenes: signed in, go practise; otherwise start the university sign-in.
  // Behind Firebase Hosting the page does not carry the session, so a press
  // that comes before GET /api/session has answered waits for it.
  const onExams = () => {
    void qc.ensureQueryData(sessionQueryOptions()).then(
      (session) => (session.user ? navigate(paths.carreras) : microsoft.start()),
      () => microsoft.start(),
    )
  }

  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-br from-brand-900 via-brand-800 to-brand-600 pt-28 pb-20 text-white sm:pt-36 sm:pb-28">
        <div aria-hidden="true" className="pointer-events-none absolute -right-24 -bottom-24 size-96 rounded-full bg-gold-400/10" />
        <div className="relative mx-auto max-w-6xl px-4 sm:px-6">
          <p className="font-semibold tracking-wide text-gold-300 uppercase">Carrera de Derecho · Modalidad a distancia</p>
          <h1 className="mt-3 max-w-3xl text-3xl leading-tight font-extrabold sm:text-5xl">Simulador del Examen Complexivo Oral</h1>
          <p className="mt-5 max-w-2xl text-lg text-brand-100">
            Practique el examen de grado en su formato real: sorteo del caso, preparación, exposición ante el tribunal, preguntas y
            evaluación con rúbrica. Conozca cómo se valoran los contenidos y las formalidades antes del día del examen.
          </p>
          <div className="mt-8 flex flex-wrap items-center gap-4">
            <Button variant="gold" className="px-8 text-lg" onClick={onExams} disabled={microsoft.isPending}>
              Exámenes
            </Button>
            <a href="#proyecto" className="rounded-md px-2 py-2 font-medium text-white underline underline-offset-4 hover:text-gold-300">
              Conozca el proyecto
            </a>
          </div>
        </div>
      </section>

      <section id="proyecto" aria-labelledby="proyecto-titulo" className="mx-auto max-w-6xl scroll-mt-20 px-4 py-16 sm:px-6">
        <h2 id="proyecto-titulo" className="text-2xl font-bold text-brand-800 sm:text-3xl">
          Sobre el proyecto
        </h2>
        <div className="mt-6 grid gap-10 lg:grid-cols-2">
          <div className="space-y-4 text-slate-700">
            <p>
              Para obtener el título, los estudiantes de Derecho de la modalidad a distancia rinden un examen complexivo oral: reciben un
              caso, lo preparan en un tiempo limitado y lo exponen ante un tribunal que luego formula preguntas y califica con una rúbrica.
              Pocas veces se tiene la oportunidad de ensayarlo antes.
            </p>
            <p>
              Este simulador enseña el método del examen. Reproduce cada fase con sus tiempos, graba la exposición para que pueda
              escucharse, y muestra cómo se evalúan los <strong>contenidos</strong> (el problema jurídico, la normativa aplicable, el
              análisis, la conclusión y las respuestas al tribunal) y las <strong>formalidades</strong> (protocolo, estructura, manejo del
              tiempo, lenguaje jurídico y expresión oral).
            </p>
            <p>
              Puede practicar en modo <em>Entrenamiento</em>, con la guía de estructura a la vista, o en modo <em>Simulacro</em>, de una
              sola vez y sin pausas, como el día del examen. Su tutor acompaña el proceso: organiza el grupo, revisa las grabaciones y
              califica con la misma rúbrica.
            </p>
          </div>
          <ol className="space-y-3">
            {phases.map(([title, text], i) => (
              <li key={title} className="flex gap-4 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
                <span
                  aria-hidden="true"
                  className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
                >
                  {i + 1}
                </span>
                <div>
                  <h3 className="font-semibold text-brand-800">{title}</h3>
                  <p className="text-sm text-slate-700">{text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section id="galeria" aria-labelledby="galeria-titulo" className="bg-white py-16">
        <div className="mx-auto max-w-6xl px-4 sm:px-6">
          <h2 id="galeria-titulo" className="text-2xl font-bold text-brand-800 sm:text-3xl">
            Galería
          </h2>
          <p className="mt-2 text-slate-700">Conozca el simulador en el video de presentación.</p>
          <div className="mt-6 overflow-hidden rounded-2xl bg-brand-900 shadow-lg">
            {videoUrl ? (
              <video
                className="aspect-video w-full"
                controls
                preload="none"
                src={videoUrl}
                aria-label="Video de presentación del simulador"
              >
                Su navegador no puede reproducir este video.
              </video>
            ) : (
              <div className="flex aspect-video w-full flex-col items-center justify-center gap-3 p-6 text-center text-brand-100">
                <svg aria-hidden="true" viewBox="0 0 24 24" className="size-14 text-gold-400" fill="currentColor">
                  <path d="M8 5.5v13l10.5-6.5L8 5.5Z" />
                </svg>
                <p className="max-w-md">El video de presentación estará disponible próximamente.</p>
              </div>
            )}
          </div>
        </div>
      </section>
    </>
  )
}
