import { PageHeader } from '@/components/ui/PageHeader'

// TestSection is /test: a tutor, or a student in an active group.
export function TestSection() {
  return (
    <>
      <PageHeader title="Simulador" subtitle="Practique el examen complexivo oral." />
      <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
        <p>El simulador se habilitará en esta sección.</p>
      </div>
    </>
  )
}
