import type { ReactNode } from 'react'

const tones = {
  info: 'border-brand-200 bg-brand-50 text-brand-900',
  warn: 'border-gold-400 bg-gold-300/20 text-slate-900',
  error: 'border-red-300 bg-red-50 text-red-900',
  success: 'border-green-300 bg-green-50 text-green-900',
} as const

export function Notice({ tone = 'info', children }: { tone?: keyof typeof tones; children: ReactNode }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'note'} className={`rounded-xl border p-4 ${tones[tone]}`}>
      {children}
    </div>
  )
}
