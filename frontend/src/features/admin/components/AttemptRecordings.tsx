import type { Attempt, Recording } from '@/features/attempts/api/types'
import { phaseName } from '@/features/attempts/api/types'
import { RecordingPlayer } from '@/features/attempts/components/RecordingPlayer'

type Take = { recording: Recording; label: string }

/** takesOf orders an attempt's recordings by phase, then by when each part began. */
export function takesOf(attempt: Pick<Attempt, 'phases' | 'recordings'>): Take[] {
  const byPhase = new Map<number, Recording[]>()
  for (const r of attempt.recordings) byPhase.set(r.phase, [...(byPhase.get(r.phase) ?? []), r])
  const out: Take[] = []
  for (const phase of [...byPhase.keys()].sort((a, b) => a - b)) {
    const parts = byPhase.get(phase)!.sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    const p = attempt.phases[phase]
    const name = p ? phaseName(p) : `Fase ${phase + 1}`
    parts.forEach((r, i) => {
      const label = parts.length > 1 ? `${name} (parte ${i + 1} de ${parts.length})` : name
      out.push({ recording: r, label })
    })
  }
  return out
}

// AttemptRecordings lists an attempt's recordings, each with a player
// (which also tells a deleted or still uploading recording).
export function AttemptRecordings({ attempt }: { attempt: Attempt }) {
  const takes = takesOf(attempt)
  if (takes.length === 0) return <p className="text-slate-700">El intento no tiene grabaciones.</p>
  return (
    <ul className="space-y-4">
      {takes.map(({ recording, label }) => (
        <li key={recording.id}>
          <RecordingPlayer attemptId={attempt.id} recording={recording} label={label} />
        </li>
      ))}
    </ul>
  )
}
