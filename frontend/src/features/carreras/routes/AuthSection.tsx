import { Navigate, Route, Routes } from 'react-router-dom'
import { AccountPage } from '@/features/account/routes/AccountPage'
import { AttemptResultPage } from './AttemptResultPage'
import { CarrerasPage } from './CarrerasPage'
import { HistorialPage } from './HistorialPage'
import { RubricaPage } from './RubricaPage'
import { paths } from '@/lib/paths'

// AuthSection is /auth: any signed-in user with a profile.
export function AuthSection() {
  return (
    <Routes>
      <Route path="carreras" element={<CarrerasPage />} />
      <Route path="historial" element={<HistorialPage />} />
      <Route path="historial/:id" element={<AttemptResultPage />} />
      <Route path="rubrica" element={<RubricaPage />} />
      <Route path="cuenta" element={<AccountPage />} />
      <Route path="*" element={<Navigate to={paths.carreras} replace />} />
    </Routes>
  )
}
