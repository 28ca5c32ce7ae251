import type { ReactNode } from 'react'

export type Column = string | { label: string; hidden?: boolean; className?: string }

/**
 * Table is every data table in the app: a caption (read by screen
 * readers, shown only when showCaption is set), one header row and the
 * caller's body rows.
 *
 * It sits in a region that scrolls sideways on a narrow screen. That
 * region is focusable and named after the caption, so a keyboard user can
 * scroll it even when no row holds a link or a button (WCAG 2.1.1; axe's
 * scrollable-region-focusable).
 */
export function Table({
  caption,
  columns,
  children,
  minWidth = '',
  showCaption = false,
  className = '',
}: {
  caption: string
  columns: Column[]
  children: ReactNode
  /** A Tailwind min-w class below which the table scrolls instead of squeezing. */
  minWidth?: string
  showCaption?: boolean
  className?: string
}) {
  return (
    <div className={`overflow-x-auto ${className}`} tabIndex={0} role="region" aria-label={caption}>
      <table className={`w-full ${minWidth} text-left text-sm`}>
        <caption className={showCaption ? 'pb-2 text-left font-semibold text-slate-900' : 'sr-only'}>{caption}</caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            {columns.map((c, i) => {
              const col = typeof c === 'string' ? { label: c } : c
              const last = i === columns.length - 1
              return (
                <th key={col.label} scope="col" className={`py-2 font-semibold ${last ? '' : 'pr-4'} ${col.className ?? ''}`}>
                  {col.hidden ? <span className="sr-only">{col.label}</span> : col.label}
                </th>
              )
            })}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

/** rowClass is the divider under every body row. */
export const rowClass = 'border-b border-slate-200'
