import type { Case } from '@/types/api'
import { formatDate } from '@/lib/format'

/** ReviewNote says who reviewed a case and when. */
export function ReviewNote({ review }: { review: NonNullable<Case['review']> }) {
  return (
    <span className="text-sm text-slate-700">
      Revisado por {review.byName || review.by} el {formatDate(review.at)}
    </span>
  )
}
