// LevelMeter shows the microphone level as an accessible meter (0–100).
export function LevelMeter({ level, label = 'Nivel del micrófono' }: { level: number; label?: string }) {
  const pct = Math.round(Math.min(1, Math.max(0, level)) * 100)
  const tone = pct >= 90 ? 'bg-red-600' : pct >= 25 ? 'bg-green-600' : 'bg-slate-400'
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-valuetext={`${pct} %`}
      className="h-3 w-full overflow-hidden rounded-full border border-slate-300 bg-slate-100"
    >
      <div className={`h-full ${tone} transition-[width] duration-75`} style={{ width: `${pct}%` }} />
    </div>
  )
}
