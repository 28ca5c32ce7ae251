package measures

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// labelled is one hand-labelled transcript of testdata/labelled. The labels
// are what a careful annotator marks, independently of the code.
type labelled struct {
	Style            string     `json:"style"`
	Text             string     `json:"text"`
	Citations        []Citation `json:"citations"`
	Unattributed     []int      `json:"unattributed"`
	Greeting         bool       `json:"greeting"`
	Closing          bool       `json:"closing"`
	Case             Case       `json:"case"`
	KeyPointsCovered []int      `json:"keyPointsCovered"`

	name string
}

func loadLabelled(t testing.TB) []labelled {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "labelled", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []labelled
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var l labelled
		dec := json.NewDecoder(strings.NewReader(string(raw)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		l.name = filepath.Base(p)
		out = append(out, l)
	}
	return out
}

// prf accumulates micro-averaged precision and recall.
type prf struct{ tp, fp, fn int }

func (s *prf) add(got, want []Citation) (fps, fns []Citation) {
	for _, g := range got {
		if slices.Contains(want, g) {
			s.tp++
		} else {
			s.fp++
			fps = append(fps, g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			s.fn++
			fns = append(fns, w)
		}
	}
	return fps, fns
}

func (s prf) precision() float64 { return ratio(s.tp, s.tp+s.fp) }
func (s prf) recall() float64    { return ratio(s.tp, s.tp+s.fn) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// TestLabelledSet measures the extractors against the labelled transcripts
// and logs the figures (go test -v -run TestLabelledSet).
func TestLabelledSet(t *testing.T) {
	set := loadLabelled(t)
	if len(set) < 24 {
		t.Fatalf("labelled set has %d transcripts; want at least 24", len(set))
	}
	var cites, noCont, noClause, keyPoints prf
	var greetOK, closeOK, unattOK int
	styles := map[string]int{}
	for _, l := range set {
		if n := len(strings.Fields(l.Text)); n < 150 || n > 600 {
			t.Errorf("%s: %d words; labelled transcripts have 150–600", l.name, n)
		}
		styles[l.Style]++
		r := Analyze(Input{Text: l.Text, Case: &l.Case})

		if fps, fns := cites.add(r.Citations, l.Citations); len(fps)+len(fns) > 0 {
			t.Logf("%s: false positives %v, missed %v", l.name, fps, fns)
		}
		plain, _ := extract(tokenize(l.Text), rules{clauseBoundary: true})
		noCont.add(plain, l.Citations)
		loose, _ := extract(tokenize(l.Text), rules{continuation: true})
		noClause.add(loose, l.Citations)

		want := l.Unattributed
		if want == nil {
			want = []int{}
		}
		if slices.Equal(r.Unattributed, want) {
			unattOK++
		} else {
			t.Logf("%s: unattributed %v, labelled %v", l.name, r.Unattributed, want)
		}
		if r.Greeting == l.Greeting {
			greetOK++
		} else {
			t.Logf("%s: greeting %v, labelled %v", l.name, r.Greeting, l.Greeting)
		}
		if r.Closing == l.Closing {
			closeOK++
		} else {
			t.Logf("%s: closing %v, labelled %v", l.name, r.Closing, l.Closing)
		}
		for i := range l.Case.KeyPoints {
			got, lab := slices.Contains(r.KeyPointsCovered, i), slices.Contains(l.KeyPointsCovered, i)
			switch {
			case got && lab:
				keyPoints.tp++
			case got:
				keyPoints.fp++
				t.Logf("%s: key point %q marked covered, labelled not", l.name, l.Case.KeyPoints[i])
			case lab:
				keyPoints.fn++
				t.Logf("%s: key point %q missed", l.name, l.Case.KeyPoints[i])
			}
		}
	}
	n := float64(len(set))
	t.Logf("transcripts: %d; styles: %v", len(set), styles)
	t.Logf("citations: precision %.3f, recall %.3f (tp %d, fp %d, fn %d)",
		cites.precision(), cites.recall(), cites.tp, cites.fp, cites.fn)
	t.Logf("citations without rule 4 (continuation): precision %.3f, recall %.3f (tp %d, fp %d, fn %d)",
		noCont.precision(), noCont.recall(), noCont.tp, noCont.fp, noCont.fn)
	t.Logf("citations without the clause boundary of rule 3: precision %.3f, recall %.3f (tp %d, fp %d, fn %d)",
		noClause.precision(), noClause.recall(), noClause.tp, noClause.fp, noClause.fn)
	t.Logf("unattributed exact: %d/%d", unattOK, len(set))
	t.Logf("greeting accuracy %.3f, closing accuracy %.3f", float64(greetOK)/n, float64(closeOK)/n)
	t.Logf("key points: precision %.3f, recall %.3f (tp %d, fp %d, fn %d)",
		keyPoints.precision(), keyPoints.recall(), keyPoints.tp, keyPoints.fp, keyPoints.fn)

	if p := cites.precision(); p < 0.95 {
		t.Errorf("citation precision %.3f < 0.95", p)
	}
	if r := cites.recall(); r < 0.90 {
		t.Errorf("citation recall %.3f < 0.90", r)
	}
	if a := float64(greetOK) / n; a < 0.9 {
		t.Errorf("greeting accuracy %.3f < 0.9", a)
	}
	if a := float64(closeOK) / n; a < 0.9 {
		t.Errorf("closing accuracy %.3f < 0.9", a)
	}
}
