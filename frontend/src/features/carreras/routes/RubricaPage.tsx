import { Notice } from '@/components/ui/Notice'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { useRubric } from '@/features/attempts/api/get-rubric'
import { RubricGuide } from '@/features/attempts/components/RubricGuide'
import { AuthNav } from '@/components/layout/AuthNav'

// RubricaPage is /auth/rubrica: what each criterion looks for, to read before
// and after practising.
export function RubricaPage() {
  const rubric = useRubric()
  return (
    <>
      <PageHeader title="Rúbrica" subtitle="Cómo se califica la exposición oral: contenido y formalidades, criterio por criterio.">
        <AuthNav />
      </PageHeader>
      <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
        {rubric.isPending && <Spinner label="Cargando la rúbrica…" />}
        {rubric.isError && <Notice tone="error">No se pudo cargar la rúbrica. {rubric.error.message}</Notice>}
        {rubric.data && <RubricGuide rubric={rubric.data} />}
      </div>
    </>
  )
}
