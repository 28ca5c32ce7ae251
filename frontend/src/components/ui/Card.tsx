import type { ReactNode } from 'react'

export function Card({
  title,
  children,
  actions,
  className = '',
}: {
  title?: ReactNode
  children: ReactNode
  actions?: ReactNode
  className?: string
}) {
  return (
    <section className={`rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-6 ${className}`}>
      {(title || actions) && (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          {title && <h2 className="text-lg font-bold text-brand-800">{title}</h2>}
          {actions}
        </div>
      )}
      {children}
    </section>
  )
}
