import { PageHeader } from '@/components/ui/PageHeader'

// AdminSection is /admin: tutors only.
export function AdminSection() {
  return (
    <>
      <PageHeader title="Administrador" subtitle="Gestione su grupo de estudiantes." />
      <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
        <p>Las herramientas del tutor se habilitarán en esta sección.</p>
      </div>
    </>
  )
}
