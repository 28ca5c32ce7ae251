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

// with is the default rubric's levels: 3 everywhere but where told.
func with(r Rubric, changes Levels) Levels {
	l := allLevels(r, 3)
	for id, v := range changes {
		l[id] = v
	}
	return l
}

func TestScore(t *testing.T) {
	r := DefaultRubric("derecho")
	for name, tc := range map[string]struct {
		levels Levels
		want   float64
		pass   bool
	}{
		"all excelente":    {allLevels(r, 4), 10, true},
		"all insuficiente": {allLevels(r, 1), 2.5, false},
		"all satisf.":      {allLevels(r, 3), 7.5, true},
		"all en desarr.":   {allLevels(r, 2), 5, false},
		// 20 × 4/4 instead of 20 × 3/4 (+0.5), 5 × 1/4 instead of 5 × 3/4 (-0.25).
		"mixed": {with(r, Levels{"C3": 4, "F5": 1}), 7.75, true},
		// 323 points / 40 = 8.075 exactly: half up is 8.08 (floating point
		// made it 8.07499… and 8.07).
		"half up": {with(r, Levels{"F1": 4, "F2": 4, "F3": 4, "F5": 4}), 8.08, true},
		// 105 points / 40 = 2.625 → 2.63.
		"half up, low": {Levels{"C1": 1, "C2": 1, "C3": 1, "C4": 1, "C5": 1, "F1": 1, "F2": 1, "F3": 1, "F4": 1, "F5": 2}, 2.63, false},
		// 280 points: exactly the pass mark.
		"exactly 7": {with(r, Levels{"C1": 1, "C2": 1, "C5": 4, "F1": 4, "F2": 4, "F3": 4, "F4": 4, "F5": 4}), 7, true},
		// 279 points / 40 = 6.975 → 6.98: still below the pass mark.
		"just below 7": {with(r, Levels{"C1": 1, "C2": 1, "C3": 4, "C5": 4, "F2": 2, "F3": 4, "F4": 4, "F5": 4}), 6.98, false},
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
	// No case has more than 3 follow-up questions to ask.
	four := DefaultBlueprint("derecho")
	four.Questions = 4
	if err := four.Validate(DefaultBounds()); err == nil || !strings.Contains(err.Error(), "entre 1 y 3 preguntas") {
		t.Fatalf("4 questions: %v", err)
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
	c.LegalBases = append(c.LegalBases, LegalBase{Norm: "COIP", Article: "art. 5"})
	c.Title = ""
	ps := c.Validate()
	if len(ps) != 3 {
		t.Fatalf("problems = %v", ps)
	}
}

func TestCaseHasTwoOrThreeFollowUps(t *testing.T) {
	for n, ok := range map[int]bool{0: false, 1: false, 2: true, 3: true, 4: false} {
		c := testCase()
		c.FollowUps = nil
		for i := range n {
			c.FollowUps = append(c.FollowUps, "¿Pregunta "+string(rune('a'+i))+"?")
		}
		ps := c.Validate()
		if ok && len(ps) != 0 {
			t.Errorf("%d follow-ups: %v", n, ps)
		}
		if !ok && (len(ps) != 1 || ps[0].Field != "followUps" || !strings.Contains(ps[0].Message, "cada caso debe tener 2 o 3")) {
			t.Errorf("%d follow-ups: %v", n, ps)
		}
	}
}

func TestNormalizeMakesLineEndsNewlines(t *testing.T) {
	c := testCase()
	c.Facts = "  Primer párrafo.\r\nSegundo párrafo.\rTercero.\n\r\n"
	c.FollowUps = []string{"¿Uno?\r\n", "¿Dos?"}
	c.Normalize()
	if c.Facts != "Primer párrafo.\nSegundo párrafo.\nTercero." {
		t.Fatalf("facts = %q", c.Facts)
	}
	if c.FollowUps[0] != "¿Uno?" {
		t.Fatalf("follow-up = %q", c.FollowUps[0])
	}
	if ps := c.Validate(); len(ps) != 0 {
		t.Fatal(ps)
	}
}

func TestCaseDifficultyLinksAndNotes(t *testing.T) {
	problems := func(c Case) map[string]string {
		out := map[string]string{}
		for _, p := range c.Validate() {
			out[p.Field] += p.Message
		}
		return out
	}
	c := testCase()
	c.Difficulty = ""
	if ps := problems(c); !strings.Contains(ps["difficulty"], "La dificultad es obligatoria") || len(ps) != 1 {
		t.Fatalf("no difficulty: %v", ps)
	}
	c.Difficulty = "dificil"
	if ps := problems(c); !strings.Contains(ps["difficulty"], "básico, intermedio o avanzado") {
		t.Fatalf("unknown difficulty: %v", ps)
	}
	c.Difficulty = " Avanzado "
	c.Normalize()
	if c.Difficulty != DifficultyAdvanced || len(c.Validate()) != 0 {
		t.Fatalf("normalized difficulty %q: %v", c.Difficulty, c.Validate())
	}

	// One key point per follow-up, each an existing one.
	c.KeyPoints = []string{"uno", "dos"}
	c.FollowUpKeyPoints = []int{2, 1}
	if ps := c.Validate(); len(ps) != 0 {
		t.Fatalf("valid links: %v", ps)
	}
	c.FollowUpKeyPoints = []int{2}
	if ps := problems(c); !strings.Contains(ps["followUpKeyPoints"], "hay 2 preguntas y 1 respuestas") {
		t.Fatalf("too few links: %v", ps)
	}
	c.FollowUpKeyPoints = []int{3, -1}
	if ps := problems(c); !strings.Contains(ps["followUpKeyPoints"], "la pregunta 1 remite al punto clave 3, que no existe") ||
		!strings.Contains(ps["followUpKeyPoints"], "la pregunta 2 remite al punto clave -1") {
		t.Fatalf("links out of range: %v", ps)
	}
	c.FollowUpKeyPoints = []int{0, 2} // the first question has no key point yet
	if ps := c.Validate(); len(ps) != 0 {
		t.Fatalf("a partly linked case: %v", ps)
	}
	c.FollowUpKeyPoints = []int{}
	c.Normalize()
	if c.FollowUpKeyPoints != nil || len(c.Validate()) != 0 {
		t.Fatalf("no links is valid: %v", c.Validate())
	}

	// A legal base's description: one line (spaces folded), bounded.
	c.LegalBases[0].Note = "  Legítima   defensa:\n requisitos. "
	c.Normalize()
	if c.LegalBases[0].Note != "Legítima defensa: requisitos." {
		t.Fatalf("note = %q", c.LegalBases[0].Note)
	}
	c.LegalBases[0].Note = strings.Repeat("x", MaxLegalBaseNote+1)
	if ps := problems(c); !strings.Contains(ps["legalBases"], "la descripción 1 supera los 240 caracteres") {
		t.Fatalf("long note: %v", ps)
	}
}

func TestDifficultyMix(t *testing.T) {
	if (DifficultyMix{}).OrDefault() != DefaultDifficultyMix || DefaultDifficultyMix.Validate() != nil {
		t.Fatal("the zero mix reads as the default, which is valid")
	}
	for _, m := range []DifficultyMix{{0, 0, 100}, {33, 33, 34}, {100, 0, 0}} {
		if err := m.Validate(); err != nil {
			t.Errorf("%+v: %v", m, err)
		}
	}
	for m, want := range map[DifficultyMix]string{
		{50, 50, 50}:  "deben sumar 100 (suman 150)",
		{-10, 60, 50}: "dificultad básico debe estar entre 0 y 100",
		{0, 0, 0}:     "suman 0",
	} {
		if err := m.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", m, err, want)
		}
	}
	bp := DefaultBlueprint("derecho")
	bp.DifficultyMix = DifficultyMix{10, 10, 10}
	if err := bp.Validate(DefaultBounds()); err == nil {
		t.Fatal("a blueprint with a mix not summing to 100 passed")
	}
	bp.DifficultyMix = DifficultyMix{}
	if err := bp.Validate(DefaultBounds()); err != nil {
		t.Fatalf("an unset mix (older clients): %v", err)
	}
}
