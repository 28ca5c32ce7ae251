// Route guards mirroring the server's rules (docs/product.md, "Roles and
// sections"). The server decides; these only choose where to send the user.
import { useEffect, type ReactNode } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router-dom'
import { useSession } from '@/features/auth/api/get-session'
import { paths } from '@/lib/paths'
import { clearLocalStorage, saveRedirect } from '@/lib/storage'
import { PageSpinner } from '@/components/ui/Spinner'

// RequireProfile admits a signed-in user whose profile exists (/auth).
// A guest has local storage cleared and lands on /inicio; the place they
// wanted is kept for after sign-in. A failed lookup is logged and sends
// the user to /inicio too.
export function RequireProfile({ children }: { children?: ReactNode }) {
  const { data, isPending, isError, error } = useSession()
  const location = useLocation()
  const guest = !isPending && !isError && !data.user

  useEffect(() => {
    if (isError) console.error('No se pudo verificar el perfil del usuario', error)
  }, [isError, error])
  useEffect(() => {
    if (guest) {
      clearLocalStorage()
      saveRedirect(location.pathname + location.search + location.hash)
    }
  }, [guest, location])

  if (isPending) return <PageSpinner />
  if (isError || !data.user) return <Navigate to={paths.home} replace />
  return children ?? <Outlet />
}

// RequireTest admits a tutor or a student in an active group (/test);
// anyone else with a profile goes to /auth/carreras.
export function RequireTest() {
  return (
    <RequireProfile>
      <AccessCheck allow={(a) => a.test} />
    </RequireProfile>
  )
}

// RequireTutor admits tutors (/admin); anyone else with a profile goes to
// /auth/carreras.
export function RequireTutor() {
  return (
    <RequireProfile>
      <AccessCheck allow={(a) => a.admin} />
    </RequireProfile>
  )
}

function AccessCheck({ allow }: { allow: (a: { test: boolean; admin: boolean }) => boolean }) {
  const { data } = useSession()
  if (!data || !allow(data.access)) return <Navigate to={paths.carreras} replace />
  return <Outlet />
}

// GuestOnly is the login page's rule: a signed-in user goes to /auth/carreras.
// The page shows at once while the session is checked (most visitors are
// guests), instead of a spinner that would shift the layout.
export function GuestOnly() {
  const { data } = useSession()
  if (data?.user) return <Navigate to={paths.carreras} replace />
  return <Outlet />
}
