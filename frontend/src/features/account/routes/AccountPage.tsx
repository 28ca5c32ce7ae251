import { Notice } from '@/components/ui/Notice'
import { PageHeader } from '@/components/ui/PageHeader'
import { Spinner } from '@/components/ui/Spinner'
import { useSession } from '@/features/auth/api/get-session'
import { AuthNav } from '@/components/layout/AuthNav'
import { useAccount } from '../api/get-account'
import { PasswordCard } from '../components/PasswordCard'
import { SessionsCard } from '../components/SessionsCard'
import { TwoStepCard } from '../components/TwoStepCard'

// AccountPage is /auth/cuenta: the user's password, the sessions open in
// their name and, for tutors who sign in with a password, two-step
// verification.
export function AccountPage() {
  const { data: session } = useSession()
  const account = useAccount()
  return (
    <>
      <PageHeader title="Mi cuenta" subtitle={session?.user?.mail}>
        <AuthNav />
      </PageHeader>
      <div className="mx-auto max-w-6xl space-y-8 px-4 py-10 sm:px-6">
        {account.isPending && <Spinner label="Cargando su cuenta…" />}
        {account.isError && <Notice tone="error">No se pudo cargar su cuenta. {account.error.message}</Notice>}
        {account.data && (
          <>
            <PasswordCard hasPassword={account.data.hasPassword} />
            <TwoStepCard mfa={account.data.mfa} />
          </>
        )}
        <SessionsCard />
      </div>
    </>
  )
}
