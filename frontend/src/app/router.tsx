import { lazy } from 'react'
import { Navigate, Route, Routes } from 'react-router-dom'
import { RootLayout } from '@/app/layout/RootLayout'
import { HomePage } from '@/features/home/routes/HomePage'
import { afterFirstPaint } from '@/lib/after-first-paint'
import { paths } from '@/lib/paths'
import { GuestOnly, RequireProfile, RequireTest, RequireTutor } from './guards'

// Sections load lazily (docs/decisions/0005-lazy-dialogs-and-sections.md).
// The home page (/inicio) is in the first bundle so it paints without a
// second round trip. The login page (with its code step and reset form) is
// a small chunk of its own: opened directly, it starts loading with the app
// rather than after the first render; from /inicio it is fetched once the
// page has painted, so "Iniciar Sesión" opens it at once. The declarative
// router keeps react-router's data-router code out of the first load
// (about 20 kB gzip).
const loadLoginPage = () => import('@/features/auth/routes/LoginPage')
if (window.location.pathname === paths.login) void loadLoginPage().catch(() => undefined)
else if (window.location.pathname === paths.home) afterFirstPaint(() => void loadLoginPage().catch(() => undefined))
const LoginPage = lazy(() => loadLoginPage().then((m) => ({ default: m.LoginPage })))
const AuthSection = lazy(() => import('@/features/carreras/routes/AuthSection').then((m) => ({ default: m.AuthSection })))
const TestSection = lazy(() => import('@/features/test/routes/TestSection').then((m) => ({ default: m.TestSection })))
const AdminSection = lazy(() => import('@/features/admin/routes/AdminSection').then((m) => ({ default: m.AdminSection })))

// AppRoutes is the app's route table (docs/product.md, "Roles and sections").
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<Navigate to={paths.home} replace />} />
        <Route path="inicio" element={<HomePage />} />
        <Route element={<GuestOnly />}>
          <Route path="login" element={<LoginPage />} />
        </Route>
        <Route path="auth" element={<RequireProfile />}>
          <Route index element={<AuthSection />} />
          <Route path="*" element={<AuthSection />} />
        </Route>
        <Route path="test" element={<RequireTest />}>
          <Route index element={<TestSection />} />
          <Route path="*" element={<TestSection />} />
        </Route>
        <Route path="admin" element={<RequireTutor />}>
          <Route index element={<AdminSection />} />
          <Route path="*" element={<AdminSection />} />
        </Route>
        <Route path="*" element={<Navigate to={paths.home} replace />} />
      </Route>
    </Routes>
  )
}
