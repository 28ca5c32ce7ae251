package measures

// Pause is a stretch of the recording below the silence threshold.
type Pause struct {
	StartMs int64 `json:"startMs"`
	EndMs   int64 `json:"endMs"`
}

// LongPauses finds the long pauses in a recorder's level trace. levels are
// RMS levels (0..1) sampled every intervalMs; sample i covers
// [i*intervalMs, (i+1)*intervalMs). A pause is a run of samples below
// threshold lasting at least minMs (the product uses 3000 ms). It returns
// an empty slice, never nil, so it encodes as [] in JSON.
func LongPauses(levels []float64, intervalMs int64, threshold float64, minMs int64) []Pause {
	out := []Pause{}
	if intervalMs <= 0 {
		return out
	}
	run := -1 // start sample of the current quiet run, -1 outside one
	flush := func(end int) {
		if run < 0 {
			return
		}
		p := Pause{StartMs: int64(run) * intervalMs, EndMs: int64(end) * intervalMs}
		if p.EndMs-p.StartMs >= minMs {
			out = append(out, p)
		}
		run = -1
	}
	for i, v := range levels {
		// NaN compares false and so counts as sound: a broken sample must not
		// invent a pause.
		if v < threshold {
			if run < 0 {
				run = i
			}
			continue
		}
		flush(i)
	}
	flush(len(levels))
	return out
}
