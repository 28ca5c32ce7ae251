// Dates and numbers as an Ecuadorian reader expects them.
const dateFmt = new Intl.DateTimeFormat('es-EC', { dateStyle: 'medium' })
const dateTimeFmt = new Intl.DateTimeFormat('es-EC', { dateStyle: 'medium', timeStyle: 'short' })

export const formatDate = (iso: string | null | undefined) => (iso ? dateFmt.format(new Date(iso)) : '—')
export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTimeFmt.format(new Date(iso)) : '—')
export const formatScore = (n: number | null | undefined) =>
  n === null || n === undefined ? '—' : n.toLocaleString('es-EC', { minimumFractionDigits: 1, maximumFractionDigits: 1 })
/** formatPercent shows a share (0.75) as a whole percentage: "75 %". */
export const formatPercent = (share: number | null | undefined) =>
  share === null || share === undefined ? '—' : `${Math.round(share * 100)} %`
