import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { PageSpinner } from '@/components/ui/Spinner'
import { useGradingQueue } from '../api/get-grading-queue'
import { AttemptsTable } from '../components/AttemptsTable'

// GradingQueuePage is /admin/calificar: attempts of the tutor's groups
// waiting for a grade, newest first.
export function GradingQueuePage() {
  const q = useGradingQueue()
  if (q.isPending) return <PageSpinner />
  if (q.isError) return <Notice tone="error">No se pudo cargar la lista de intentos por calificar.</Notice>
  return (
    <Card title={`Intentos por calificar (${q.data.length})`}>
      <p className="mb-4 text-slate-700">
        Intentos terminados de sus grupos que aún no tienen su calificación, del más reciente al más antiguo. Al calificar, el estudiante ve
        la nota y sus comentarios.
      </p>
      {q.data.length === 0 ? (
        <p className="text-slate-700">No hay intentos por calificar.</p>
      ) : (
        <AttemptsTable attempts={q.data} caption="Intentos por calificar" variant="queue" />
      )}
    </Card>
  )
}
