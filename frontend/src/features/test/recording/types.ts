// Shapes of the simulator API (docs/api-simulator.md) used by the recording engine.

// Recording: one take of a recorded phase; a phase interrupted by a reload
// has several parts, in order of createdAt.
export interface Recording {
  id: string // the client-made UUID
  phase: number // index into the attempt's phases
  mimeType: string
  chunks: number
  bytes: number
  durationMs: number
  complete: boolean
  deleted: boolean
  createdAt: string
}
