import type { ReactNode } from 'react'
import { Notice } from '@/components/ui/Notice'
import { PageSpinner } from '@/components/ui/Spinner'

type Query<T> = { isPending: boolean; isError: boolean; data: T | undefined; error: unknown }

// PageState is the frame of an admin page about one thing (an attempt, a
// student): a spinner while it loads; then the way back (links) above
// either the error, in Spanish, or the page drawn from the data.
export function PageState<T>({
  query,
  back,
  errorText,
  children,
}: {
  query: Query<T>
  back: ReactNode
  errorText: (error: unknown) => string
  children: (data: T) => ReactNode
}) {
  if (query.isPending) return <PageSpinner />
  return (
    <div className="space-y-6">
      {back}
      {query.isError || query.data === undefined ? <Notice tone="error">{errorText(query.error)}</Notice> : children(query.data)}
    </div>
  )
}
