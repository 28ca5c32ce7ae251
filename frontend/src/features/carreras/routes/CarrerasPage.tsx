import { Link } from 'react-router-dom'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { buttonClass } from '@/components/ui/Button'
import { useSession } from '@/features/auth/api/get-session'
import { paths } from '@/lib/paths'
import { useDegrees } from '../api/get-degrees'

export function CarrerasPage() {
  const { data: session } = useSession()
  const degrees = useDegrees()
  const name = session?.user?.givenName || session?.user?.displayName || session?.user?.mail

  return (
    <>
      <PageHeader title="Carreras" subtitle={name ? `Bienvenido(a), ${name}.` : undefined} />
      <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
        {!session?.access.test && (
          <div role="note" className="mb-6 rounded-xl border border-gold-400 bg-gold-300/20 p-4 text-slate-800">
            Aún no pertenece a un grupo activo. Solicite a su tutor que lo agregue a su grupo para practicar el examen.
          </div>
        )}
        <h2 className="text-xl font-bold text-brand-800">Carreras disponibles</h2>
        {degrees.isPending && <Spinner />}
        {degrees.isError && <p role="alert">No se pudieron cargar las carreras. Intente de nuevo más tarde.</p>}
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {degrees.data?.map((d) => (
            <li key={d.id} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
              <h3 className="text-lg font-semibold text-brand-800">{d.nombre}</h3>
              {session?.access.test && (
                <Link to={paths.test} className={buttonClass('primary', 'mt-4')}>
                  Practicar
                </Link>
              )}
            </li>
          ))}
        </ul>
      </div>
    </>
  )
}
