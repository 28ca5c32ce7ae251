import { useId } from 'react'

export type Series = { name: string; points: { x: number; y: number; label?: string }[]; color?: string }

const palette = ['#143d6e', '#b8860b', '#2a7f62', '#a23b72', '#5b5f97', '#c2571a']

// LineChart is a small dependency-free SVG chart with a data table for
// screen readers (the chart itself is decorative to them).
export function LineChart({
  title,
  series,
  yMin,
  yMax,
  yTicks,
  height = 220,
  yFormat = (v: number) => String(v),
  xFormat = (v: number) => String(v),
  threshold,
}: {
  title: string
  series: Series[]
  yMin: number
  yMax: number
  yTicks: number[]
  height?: number
  yFormat?: (v: number) => string
  xFormat?: (v: number) => string
  threshold?: { y: number; label: string }
}) {
  const id = useId()
  const width = 640
  const pad = { l: 40, r: 12, t: 12, b: 28 }
  const xs = series.flatMap((s) => s.points.map((p) => p.x))
  const xMin = Math.min(...xs, 0)
  const xMax = Math.max(...xs, 1)
  const sx = (x: number) => pad.l + ((x - xMin) / (xMax - xMin || 1)) * (width - pad.l - pad.r)
  const sy = (y: number) => pad.t + (1 - (y - yMin) / (yMax - yMin || 1)) * (height - pad.t - pad.b)
  return (
    <figure className="w-full">
      <figcaption id={`${id}-t`} className="mb-2 font-semibold text-slate-800">
        {title}
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} className="h-auto w-full" role="img" aria-labelledby={`${id}-t`}>
        {yTicks.map((t) => (
          <g key={t}>
            <line x1={pad.l} x2={width - pad.r} y1={sy(t)} y2={sy(t)} stroke="#e2e8f0" />
            <text x={pad.l - 6} y={sy(t) + 4} textAnchor="end" fontSize="11" fill="#475569">
              {yFormat(t)}
            </text>
          </g>
        ))}
        {threshold && (
          <g>
            <line x1={pad.l} x2={width - pad.r} y1={sy(threshold.y)} y2={sy(threshold.y)} stroke="#b91c1c" strokeDasharray="4 4" />
            <text x={width - pad.r} y={sy(threshold.y) - 4} textAnchor="end" fontSize="11" fill="#b91c1c">
              {threshold.label}
            </text>
          </g>
        )}
        {series.map((s, i) => {
          const color = s.color ?? palette[i % palette.length]
          const d = s.points.map((p, j) => `${j ? 'L' : 'M'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`).join(' ')
          return (
            <g key={s.name}>
              <path d={d} fill="none" stroke={color} strokeWidth="2.5" />
              {s.points.map((p, j) => (
                <circle key={j} cx={sx(p.x)} cy={sy(p.y)} r="3.5" fill={color} />
              ))}
            </g>
          )
        })}
      </svg>
      {series.length > 1 && (
        <ul className="mt-2 flex flex-wrap gap-3 text-sm" aria-hidden="true">
          {series.map((s, i) => (
            <li key={s.name} className="flex items-center gap-1">
              <span className="inline-block size-3 rounded-full" style={{ background: s.color ?? palette[i % palette.length] }} />
              {s.name}
            </li>
          ))}
        </ul>
      )}
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-brand-700">Ver los datos en una tabla</summary>
        <table className="mt-2 text-left">
          <thead>
            <tr>
              <th scope="col" className="pr-4">
                Serie
              </th>
              <th scope="col" className="pr-4">
                Punto
              </th>
              <th scope="col">Valor</th>
            </tr>
          </thead>
          <tbody>
            {series.flatMap((s) =>
              s.points.map((p, j) => (
                <tr key={`${s.name}-${j}`}>
                  <td className="pr-4">{s.name}</td>
                  <td className="pr-4">{p.label ?? xFormat(p.x)}</td>
                  <td>{yFormat(p.y)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </details>
    </figure>
  )
}
