import { Navigate, Route, Routes } from 'react-router-dom'
import { paths } from '@/lib/paths'
import { AttemptPage } from './AttemptPage'
import { StartPage } from './StartPage'

// TestSection is /test: a tutor, or a student in an active group.
//   /test                the method, mode choice, microphone check, draw
//   /test/intento/:id    an attempt, phase by phase
export function TestSection() {
  return (
    <Routes>
      <Route index element={<StartPage />} />
      <Route path="intento/:id" element={<AttemptPage />} />
      <Route path="*" element={<Navigate to={paths.test} replace />} />
    </Routes>
  )
}
