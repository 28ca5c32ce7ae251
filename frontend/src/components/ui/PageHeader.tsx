import type { ReactNode } from 'react'

// PageHeader is the dark band at the top of every inner page; the fixed
// site header sits transparent over it until the page scrolls.
export function PageHeader({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children?: ReactNode }) {
  return (
    <div className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-700 pt-24 pb-10 text-white">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <h1 className="text-2xl font-bold sm:text-3xl">{title}</h1>
        {subtitle && <p className="mt-2 max-w-3xl text-brand-100">{subtitle}</p>}
        {children}
      </div>
    </div>
  )
}
