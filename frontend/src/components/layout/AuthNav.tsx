import { NavLink } from 'react-router-dom'
import { paths } from '@/lib/paths'

const tabs = [
  [paths.carreras, 'Carreras'],
  [paths.historial, 'Historial'],
  [paths.rubrica, 'Rúbrica'],
  [paths.cuenta, 'Mi cuenta'],
] as const

// AuthNav is the sub-navigation of the /auth pages, drawn as tabs at the
// bottom of the page header.
export function AuthNav() {
  return (
    <nav aria-label="Mis exámenes" className="mt-6 -mb-10 overflow-x-auto">
      <ul className="flex gap-1">
        {tabs.map(([to, label]) => (
          <li key={to}>
            <NavLink
              to={to}
              className={({ isActive }) =>
                `block rounded-t-lg px-4 py-2.5 font-semibold whitespace-nowrap ${isActive ? 'bg-slate-50 text-brand-800' : 'text-white hover:bg-white/10'}`
              }
            >
              {label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
