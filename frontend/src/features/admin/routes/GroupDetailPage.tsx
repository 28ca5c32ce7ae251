import { Link, useParams } from 'react-router-dom'
import { Card } from '@/components/ui/Card'
import { Notice } from '@/components/ui/Notice'
import { PageSpinner } from '@/components/ui/Spinner'
import { useGroup } from '../api/get-groups'
import { GroupSummary, StatusBadge } from '../components/GroupSummary'
import { InfoUnavailableNotice, MembersTable } from '../components/MembersTable'
import { adminPaths } from '@/lib/paths'

// GroupDetailPage shows any of the tutor's groups, read-only.
export function GroupDetailPage() {
  const { id = '' } = useParams()
  const q = useGroup(id)
  if (q.isPending) return <PageSpinner />
  if (q.isError) return <Notice tone="error">No se encontró el grupo.</Notice>
  const { group, students, infoUnavailable } = q.data
  return (
    <div className="space-y-6">
      <p>
        <Link to={adminPaths.group} className="font-semibold text-brand-700 underline">
          ← Volver a Grupo
        </Link>
      </p>
      <Card title="Grupo" actions={<StatusBadge status={group.status} />}>
        <GroupSummary group={group} />
      </Card>
      <Card title={`Estudiantes (${students.length})`}>
        {infoUnavailable && (
          <div className="mb-4">
            <InfoUnavailableNotice />
          </div>
        )}
        <MembersTable students={students} caption="Estudiantes del grupo" />
      </Card>
    </div>
  )
}
