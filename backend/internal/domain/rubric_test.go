package domain

import (
	"strings"
	"testing"
)

func allLevels(r Rubric, l int) Levels {
	out := Levels{}
	for _, c := range r.Criteria {
		out[c.ID] = l
	}
	return out
}

func TestDefaultRubricMatchesProduct(t *testing.T) {
	r := DefaultRubric("derecho")
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	sum := map[string]int{}
	for _, c := range r.Criteria {
		sum[c.Group] += c.Weight
	}
	if sum[GroupContenido] != 70 || sum[GroupFormalidades] != 30 || len(r.Criteria) != 10 {
		t.Fatalf("weights = %v", sum)
	}
}

func TestScore(t *testing.T) {
	r := DefaultRubric("derecho")
	mixed := allLevels(r, 3)
	mixed["C3"] = 4 // 20 × 4/4 instead of 20 × 3/4: +0.5
	mixed["F5"] = 1 // 5 × 1/4 instead of 5 × 3/4: -0.25
	for name, tc := range map[string]struct {
		levels Levels
		want   float64
		pass   bool
	}{
		"all excelente":    {allLevels(r, 4), 10, true},
		"all insuficiente": {allLevels(r, 1), 2.5, false},
		"all satisf.":      {allLevels(r, 3), 7.5, true},
		"all en desarr.":   {allLevels(r, 2), 5, false},
		"mixed":            {mixed, 7.75, true},
	} {
		got := r.Score(tc.levels)
		if got != tc.want || r.Passed(got) != tc.pass {
			t.Errorf("%s: score %v pass %v, want %v %v", name, got, r.Passed(got), tc.want, tc.pass)
		}
	}
	edge := r
	edge.Criteria = []Criterion{{ID: "A", Weight: 70}, {ID: "B", Weight: 30}}
	if got := edge.Score(Levels{"A": 4, "B": 1}); got != 7.75 {
		t.Fatalf("edge = %v", got)
	}
}

func TestRubricValidation(t *testing.T) {
	r := DefaultRubric("derecho")
	r.Criteria[0].Weight = 20
	if err := r.Validate(); err == nil || !strings.Contains(err.Error(), "suman 105") {
		t.Fatalf("weights not 100: %v", err)
	}
	r = DefaultRubric("derecho")
	r.Criteria[1].ID = r.Criteria[0].ID
	if err := r.Validate(); err == nil {
		t.Fatal("duplicate id accepted")
	}
	r = DefaultRubric("derecho")
	r.Criteria[2].Descriptors[1] = ""
	if err := r.Validate(); err == nil {
		t.Fatal("missing descriptor accepted")
	}
	if err := r.ValidateLevels(Levels{"C1": 5}); err == nil {
		t.Fatal("level 5 accepted")
	}
}

func TestBlueprintBounds(t *testing.T) {
	bp := DefaultBlueprint("derecho")
	if err := bp.Validate(DefaultBounds()); err != nil {
		t.Fatal(err)
	}
	bp.PresentationSec = 20 * 60
	if err := bp.Validate(DefaultBounds()); err == nil || !strings.Contains(err.Error(), "exposición") {
		t.Fatalf("20-minute presentation: %v", err)
	}
	short := bp
	short.PreparationSec, short.PresentationSec, short.ThinkSec, short.AnswerSec, short.ClosingSec = 5, 5, 2, 5, 3
	if err := short.Validate(DefaultBounds()); err == nil {
		t.Fatal("short timings accepted without ALLOW_SHORT_TIMINGS")
	}
	if err := short.Validate(ShortBounds()); err != nil {
		t.Fatal(err)
	}
}

func TestCaseValidation(t *testing.T) {
	c := testCase()
	if ps := c.Validate(); len(ps) != 0 {
		t.Fatalf("valid case: %v", ps)
	}
	c.KeyPoints = append(c.KeyPoints, "dos\nlíneas")
	c.LegalBases = append(c.LegalBases, LegalBase{"COIP", "art. 5"})
	c.Title = ""
	ps := c.Validate()
	if len(ps) != 3 {
		t.Fatalf("problems = %v", ps)
	}
}
