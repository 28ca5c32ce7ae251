package migrate

import (
	"crypto/sha256"
	"fmt"
	"sync"

	"github.com/utpl/simulador/backend/internal/store"
)

// digest sums up a kind on one side: how many records, and the XOR of
// their hashes (key and canonical content), which does not depend on the
// order the store returns them in.
type digest struct {
	n   int64
	sum [sha256.Size]byte
}

func digestOf(r *run, s store.Exporter, kind store.Kind) (digest, error) {
	var d digest
	err := eachPage(r.ctx, s, kind, func(recs []store.Record) error {
		for _, rec := range recs {
			d.n++
			h := recordHash(rec)
			for i := range d.sum {
				d.sum[i] ^= h[i]
			}
		}
		return nil
	})
	return d, err
}

// verify reads both sides again, whole: per kind, the count and a digest
// of every record; per recording, its audio against its chunks' sizes and
// SHA-256 on each side, and the hash of the whole audio on both sides.
func (r *run) verify() error {
	r.logf("verify: reading both sides again")
	for _, kind := range store.Kinds {
		k := r.report.kind(kind)
		src, err := digestOf(r, r.From.Store, kind)
		if err != nil {
			return err
		}
		dst, err := digestOf(r, r.To.Store, kind)
		if err != nil {
			return fmt.Errorf("destination: %w", err)
		}
		k.SourceCount, k.DestCount, k.Match = src.n, dst.n, src == dst
		switch {
		case src.n != dst.n:
			r.problem("%s: %d in the source, %d at the destination", kind, src.n, dst.n)
		case src.sum != dst.sum:
			r.problem("%s: the same number on both sides, but not the same records", kind)
		}
	}
	if err := r.verifyMedia(); err != nil {
		return err
	}
	r.report.Verified = true
	return nil
}

func (r *run) verifyMedia() error {
	m := &r.report.Media
	m.Source, m.SourceBytes = 0, 0
	var mu sync.Mutex
	err := r.eachAudio(func(a audio) error {
		check := AudioCheck{Key: a.key, Composed: a.composed, Bytes: a.bytes()}
		st, _, sum, err := inspect(r, r.From.Media, a)
		if err != nil {
			return fmt.Errorf("read the audio of recording %s at the source: %w", a.key, err)
		}
		if st == statePresent {
			check.SourceSHA256 = sum
		}
		if r.report.SameMedia {
			check.DestSHA256 = check.SourceSHA256
		} else if st, _, sum, err = inspect(r, r.To.Media, a); err != nil {
			return fmt.Errorf("read the audio of recording %s at the destination: %w", a.key, err)
		} else if st == statePresent {
			check.DestSHA256 = sum
		}
		check.OK = check.SourceSHA256 != "" && check.SourceSHA256 == check.DestSHA256
		mu.Lock()
		defer mu.Unlock()
		m.Source++
		m.SourceBytes += check.Bytes
		r.report.Audio = append(r.report.Audio, check)
		switch {
		case check.OK:
			m.Verified++
			m.DestBytes += check.Bytes
		case check.SourceSHA256 == "":
			r.problem("audio of recording %s: %v (missing or damaged: %d chunks, %d bytes expected)", a.key, errSourceAudio, len(a.chunks), check.Bytes)
		default:
			r.problem("audio of recording %s: missing or different at the destination", a.key)
		}
		return nil
	})
	return err
}
