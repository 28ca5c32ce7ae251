package migrate

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/store"
)

// Report is what a run found and did.
type Report struct {
	Kinds []*KindReport // in the order of store.Kinds
	Media MediaReport
	// Audio is the verification of every recording's audio.
	Audio []AudioCheck
	// Problems are conflicts, damaged source audio and mismatches, one
	// line each; any makes the run fail.
	Problems []string

	DryRun      bool
	SameMedia   bool // both sides keep the audio in the same place
	Interrupted bool // stopped before the end (Options.StopAfter)
	Verified    bool // the verification ran to its end
	Elapsed     time.Duration
}

// KindReport is one kind of record.
type KindReport struct {
	Kind store.Kind
	// The plan: records in the source, and of those already at the
	// destination as they are, there but different, and to copy.
	Source, Present, Different, ToCopy int64
	// Copied is how many were written.
	Copied int
	// The verification: how many each side holds, and whether they are
	// the same records.
	SourceCount, DestCount int64
	Match                  bool
}

// MediaReport is the recordings' audio.
type MediaReport struct {
	// Source is how many recordings have audio at the source, and how
	// many bytes it is.
	Source      int64
	SourceBytes int64
	// The plan: already at the destination, to copy.
	Present, ToCopy int64
	// Copied were written; Skipped were not, their source audio being
	// damaged or missing.
	Copied, Skipped int
	// Verified recordings match on both sides; DestBytes is their size.
	Verified  int64
	DestBytes int64
}

// AudioCheck is the verification of one recording's audio: its size, and
// the SHA-256 of the whole audio on each side ("" where it is missing or
// does not match its chunks).
type AudioCheck struct {
	Key                      string
	Composed                 bool
	Bytes                    int64
	SourceSHA256, DestSHA256 string
	OK                       bool
}

func (r *Report) kind(k store.Kind) *KindReport {
	for _, kr := range r.Kinds {
		if kr.Kind == k {
			return kr
		}
	}
	kr := &KindReport{Kind: k}
	r.Kinds = append(r.Kinds, kr)
	return kr
}

// Copied is how many records and recordings the run wrote.
func (r *Report) Copied() (records, recordings int) {
	for _, k := range r.Kinds {
		records += k.Copied
	}
	return records, r.Media.Copied
}

// WriteSummary prints the table of kinds and the outcome; with every, a
// line per recording's audio too.
func (r *Report) WriteSummary(w io.Writer, every bool) {
	if r.DryRun || !r.Verified {
		row := "%-20s %8v %14v %8v %8v\n"
		fmt.Fprintf(w, row, "kind", "source", "already there", "to copy", "copied")
		for _, k := range r.Kinds {
			fmt.Fprintf(w, row, k.Kind, k.Source, k.Present, k.ToCopy, k.Copied)
		}
		m := r.Media
		fmt.Fprintf(w, row, "audio", m.Source, m.Present, m.ToCopy, m.Copied)
	} else {
		row := "%-20s %8v %12v %8v %9v\n"
		fmt.Fprintf(w, row, "kind", "source", "destination", "copied", "verified")
		for _, k := range r.Kinds {
			fmt.Fprintf(w, row, k.Kind, k.SourceCount, k.DestCount, k.Copied, okOr(k.Match, "MISMATCH"))
		}
		m := r.Media
		fmt.Fprintf(w, row, "audio ("+size(m.SourceBytes)+")", m.Source, m.Verified, m.Copied, okOr(m.Verified == m.Source, "MISMATCH"))
	}
	if every && len(r.Audio) > 0 {
		fmt.Fprintln(w)
		audio := slices.Clone(r.Audio)
		slices.SortFunc(audio, func(a, b AudioCheck) int { return strings.Compare(a.Key, b.Key) })
		for _, a := range audio {
			form := "chunks"
			if a.Composed {
				form = "composed"
			}
			fmt.Fprintf(w, "%-60s %-8s %10d  source %-64s  destination %-64s  %s\n", a.Key, form, a.Bytes,
				orDash(a.SourceSHA256), orDash(a.DestSHA256), okOr(a.OK, "MISMATCH"))
		}
	}
	fmt.Fprintln(w)
	records, recordings := r.Copied()
	switch {
	case len(r.Problems) > 0:
		fmt.Fprintf(w, "FAILED: %d problems:\n", len(r.Problems))
		for _, p := range r.Problems {
			fmt.Fprintf(w, "  - %s\n", p)
		}
	case r.DryRun:
		var n int64
		for _, k := range r.Kinds {
			n += k.ToCopy
		}
		fmt.Fprintf(w, "Dry run: nothing was written. %d records and the audio of %d recordings would be copied.\n", n, r.Media.ToCopy)
	case r.Interrupted || !r.Verified:
		fmt.Fprintf(w, "Stopped after %d records and %d recordings: run the same command again to finish.\n", records, recordings)
	case records == 0 && recordings == 0:
		fmt.Fprintf(w, "Nothing new to copy: the destination already held everything, and both sides match (%s).\n", r.Elapsed.Round(time.Millisecond))
	default:
		fmt.Fprintf(w, "Copied %d records and the audio of %d recordings; both sides match (%s).\n", records, recordings, r.Elapsed.Round(time.Millisecond))
	}
}

func okOr(ok bool, bad string) string {
	if ok {
		return "ok"
	}
	return bad
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// size writes a byte count for people.
func size(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
