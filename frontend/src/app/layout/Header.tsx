import { useEffect, useId, useState } from 'react'
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom'
import { useSession } from '@/features/auth/api/get-session'
import { useLogout } from '@/features/auth/api/logout'
import { useAppConfig } from '@/lib/config'
import { paths } from '@/lib/paths'

// useScrolled reports whether the page has scrolled away from the top: the
// header is transparent at the top and white once scrolled (docs/product.md,
// "Public pages and sign-in").
function useScrolled(threshold = 8) {
  const [scrolled, setScrolled] = useState(() => typeof window !== 'undefined' && window.scrollY > threshold)
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > threshold)
    onScroll()
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [threshold])
  return scrolled
}

export function Header() {
  const scrolled = useScrolled()
  // The menu is open on the page where it was opened: following a link
  // (another pathname) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null)
  const menuId = useId()
  const location = useLocation()
  const navigate = useNavigate()
  const { data: session } = useSession()
  const { data: config } = useAppConfig()
  const logout = useLogout()
  const user = session?.user ?? null
  const open = openOn === location.pathname
  const solid = scrolled || open

  const onLogout = () => {
    logout.mutate(undefined, { onSettled: () => navigate(paths.home) })
  }

  const linkBase = 'block rounded-md px-3 py-2 font-medium transition-colors focus-visible:outline-offset-0'
  const linkColor = solid ? 'text-brand-800 hover:bg-brand-50' : 'text-white hover:bg-white/10'
  const navClass = ({ isActive }: { isActive: boolean }) =>
    `${linkBase} ${linkColor} ${isActive ? (solid ? 'underline decoration-gold-500 decoration-2 underline-offset-8' : 'underline decoration-gold-400 decoration-2 underline-offset-8') : ''}`

  const items = (
    <>
      <li>
        <NavLink to={paths.home} className={navClass}>
          Inicio
        </NavLink>
      </li>
      <li>
        <NavLink to={user ? paths.carreras : paths.login} className={({ isActive }) => navClass({ isActive: isActive && !!user })}>
          Exámenes
        </NavLink>
      </li>
      <li>
        <a
          href={config?.site.universityUrl ?? 'https://www.utpl.edu.ec'}
          target="_blank"
          rel="noopener noreferrer"
          className={`${linkBase} ${linkColor}`}
        >
          UTPL<span className="sr-only"> (sitio de la universidad, se abre en una pestaña nueva)</span>
        </a>
      </li>
      {session?.access.admin && (
        <li>
          <NavLink to={paths.admin} className={navClass}>
            Administrador
          </NavLink>
        </li>
      )}
      <li>
        {user ? (
          <button type="button" onClick={onLogout} disabled={logout.isPending} className={`${linkBase} ${linkColor} w-full text-left`}>
            Cerrar Sesión
          </button>
        ) : (
          <NavLink to={paths.login} className={navClass}>
            Iniciar Sesión
          </NavLink>
        )}
      </li>
    </>
  )

  return (
    <header
      data-scrolled={scrolled ? 'true' : 'false'}
      className={`fixed inset-x-0 top-0 z-40 transition-colors duration-200 ${solid ? 'bg-white shadow-md' : 'bg-transparent'}`}
    >
      <nav aria-label="Principal" className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3 sm:px-6">
        <Link to={paths.home} className={`flex items-center gap-2 rounded-md font-bold ${solid ? 'text-brand-800' : 'text-white'}`}>
          <img src="/favicon.svg" alt="" width={36} height={36} className="size-9" />
          <span className="leading-tight">
            Simulador Oral
            <span className={`block text-xs font-medium ${solid ? 'text-slate-600' : 'text-brand-100'}`}>Examen complexivo · Derecho</span>
          </span>
        </Link>
        <ul className="hidden items-center gap-1 md:flex">{items}</ul>
        <button
          type="button"
          className={`rounded-md p-2 md:hidden ${solid ? 'text-brand-800' : 'text-white'}`}
          aria-expanded={open}
          aria-controls={menuId}
          onClick={() => setOpenOn(open ? null : location.pathname)}
        >
          <span className="sr-only">{open ? 'Cerrar menú' : 'Abrir menú'}</span>
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6" fill="none" stroke="currentColor" strokeWidth="2">
            {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </nav>
      {open && (
        <ul id={menuId} className="space-y-1 border-t border-slate-200 bg-white px-4 pb-4 pt-2 md:hidden">
          {items}
        </ul>
      )}
    </header>
  )
}
