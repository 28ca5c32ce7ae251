// BarChart draws horizontal bars with their values written out, so it reads
// without the graphic too.
export function BarChart({
  title,
  bars,
  max,
  format = (v: number) => String(v),
}: {
  title: string
  bars: { label: string; value: number; note?: string }[]
  max: number
  format?: (v: number) => string
}) {
  return (
    <figure>
      <figcaption className="mb-2 font-semibold text-slate-800">{title}</figcaption>
      <ul className="space-y-1.5">
        {bars.map((b) => (
          <li key={b.label} className="grid grid-cols-[minmax(8rem,16rem)_1fr_auto] items-center gap-2 text-sm">
            <span className="truncate" title={b.label}>
              {b.label}
            </span>
            <span aria-hidden="true" className="h-3 overflow-hidden rounded bg-slate-200">
              <span className="block h-full rounded bg-brand-600" style={{ width: `${Math.min(100, (b.value / (max || 1)) * 100)}%` }} />
            </span>
            <span className="tabular-nums">
              {format(b.value)}
              {b.note ? <span className="text-slate-600"> {b.note}</span> : null}
            </span>
          </li>
        ))}
      </ul>
    </figure>
  )
}
