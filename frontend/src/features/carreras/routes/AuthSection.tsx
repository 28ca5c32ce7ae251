import { Navigate, Route, Routes } from 'react-router-dom'
import { CarrerasPage } from './CarrerasPage'

// AuthSection is /auth: any signed-in user with a profile.
export function AuthSection() {
  return (
    <Routes>
      <Route path="carreras" element={<CarrerasPage />} />
      <Route path="*" element={<Navigate to="carreras" replace />} />
    </Routes>
  )
}
