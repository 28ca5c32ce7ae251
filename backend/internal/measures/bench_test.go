package measures

import (
	"sort"
	"strings"
	"testing"
)

// benchInput concatenates labelled transcripts into a presentation of about
// 2,500 words, the length of a 15-minute talk.
func benchInput(b *testing.B) Input {
	b.Helper()
	var parts []string
	cs := &Case{}
	words := 0
	for _, l := range loadLabelled(b) {
		if words >= 2500 {
			break
		}
		parts = append(parts, l.Text)
		words += len(strings.Fields(l.Text))
		cs.KeyPoints = append(cs.KeyPoints, l.Case.KeyPoints...)
		cs.LegalBases = append(cs.LegalBases, l.Case.LegalBases...)
	}
	return Input{Text: strings.Join(parts, "\n\n"), DurationMs: 15 * 60 * 1000, Case: cs}
}

func BenchmarkAnalyze(b *testing.B) {
	in := benchInput(b)
	b.ReportAllocs()
	var r Report
	for b.Loop() {
		r = Analyze(in)
	}
	b.ReportMetric(float64(r.Words), "words")
}

func BenchmarkExtractCitations(b *testing.B) {
	in := benchInput(b)
	b.ReportAllocs()
	for b.Loop() {
		ExtractCitations(in.Text)
	}
}

// BenchmarkAdversarial: each input is tens of kilobytes built to make a
// scan quadratic; scripts/bench-budgets.sh holds each under a second.
func BenchmarkAdversarial(b *testing.B) {
	names := make([]string, 0, len(adversarialInputs))
	for name := range adversarialInputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		in := adversarialInput(adversarialInputs[name])
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			for b.Loop() {
				Analyze(in)
			}
		})
	}
}
