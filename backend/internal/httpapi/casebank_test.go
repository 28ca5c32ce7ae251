package httpapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

type bankCase struct {
	ID                string `json:"id"`
	Title             string `json:"title"`
	Difficulty        string `json:"difficulty"`
	Demo              bool   `json:"demo"`
	FollowUps         []string
	KeyPoints         []string `json:"keyPoints"`
	FollowUpKeyPoints []int    `json:"followUpKeyPoints"`
	LegalBases        []struct {
		Norm    string `json:"norm"`
		Article string `json:"article"`
		Note    string `json:"note"`
		Label   string `json:"label"`
		URL     string `json:"url"`
	} `json:"legalBases"`
	Review *struct {
		By     string    `json:"by"`
		ByName string    `json:"byName"`
		At     time.Time `json:"at"`
	} `json:"review"`
}

func TestTutorMarksACaseReviewed(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	list := decode[[]bankCase](t, e.do(tutor, "GET", "/api/admin/cases?degree=derecho&reviewed=no", nil))
	if len(list) < 60 || !list[0].Demo || list[0].Review != nil {
		t.Fatalf("unreviewed demo bank: %d cases, first %+v", len(list), list[0])
	}
	e.clock.Advance(time.Minute)
	res := e.do(tutor, "POST", "/api/admin/cases/"+list[0].ID+"/review", nil)
	got := decode[bankCase](t, res)
	if res.Code != 200 || got.Demo || got.Review == nil || got.Review.By != "tutor@utpl.edu.ec" || got.Review.ByName != "Nombre tutor" || got.Review.At.IsZero() {
		t.Fatalf("review = %d %s", res.Code, res.Body)
	}
	reviewed := decode[[]bankCase](t, e.do(tutor, "GET", "/api/admin/cases?degree=derecho&reviewed=si", nil))
	if len(reviewed) != 1 || reviewed[0].ID != list[0].ID || reviewed[0].Review.By != "tutor@utpl.edu.ec" {
		t.Fatalf("reviewed list = %+v", reviewed)
	}
	// Editing keeps the mark; the request cannot forge one.
	full := decode[map[string]any](t, e.do(tutor, "GET", "/api/admin/cases/"+list[0].ID, nil))
	full["review"] = map[string]any{"by": "falso@utpl.edu.ec", "byName": "Falso", "at": "2020-01-01T00:00:00Z"}
	if res := e.do(otherTutor, "PUT", "/api/admin/cases/"+list[0].ID, full); res.Code != 200 || decode[bankCase](t, res).Review.By != "tutor@utpl.edu.ec" {
		t.Fatalf("edit of a reviewed case = %d %s", res.Code, res.Body)
	}
	if res := e.do(tutor, "POST", "/api/admin/cases/no-existe/review", nil); res.Code != 404 {
		t.Fatalf("unknown case = %d", res.Code)
	}
	if res := e.do(tutor, "GET", "/api/admin/cases?reviewed=quizas", nil); res.Code != 400 {
		t.Fatalf("bad filter = %d", res.Code)
	}
}

func TestDifficultyInTheBankAndTheDraw(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// The bank is filtered by difficulty; a new case needs one.
	hard := decode[[]bankCase](t, e.do(tutor, "GET", "/api/admin/cases?degree=derecho&difficulty=avanzado", nil))
	if len(hard) == 0 {
		t.Fatal("no advanced case in the demo bank")
	}
	for _, c := range hard {
		if c.Difficulty != "avanzado" {
			t.Fatalf("filter gave %s (%s)", c.Title, c.Difficulty)
		}
	}
	body := newCaseBody("Sin dificultad")
	delete(body, "difficulty")
	if res := e.do(tutor, "POST", "/api/admin/cases", body); res.Code != 400 || !strings.Contains(res.Body.String(), `"column":"difficulty"`) {
		t.Fatalf("case without difficulty = %d %s", res.Code, res.Body)
	}

	// The student's first screen lists the difficulties there are.
	o := decode[struct {
		Difficulties []struct{ Value, Label string } `json:"difficulties"`
	}](t, e.do(studentInGrp, "GET", "/api/exam/overview", nil))
	if len(o.Difficulties) != 3 || o.Difficulties[0].Value != "basico" || o.Difficulties[0].Label != "Básico" || o.Difficulties[2].Label != "Avanzado" {
		t.Fatalf("overview difficulties = %+v", o.Difficulties)
	}

	// Training draws the difficulty asked for.
	for _, d := range []string{"basico", "intermedio", "avanzado"} {
		a := e.mustAttempt(studentInGrp, "POST", "/api/attempts", map[string]string{"mode": "entrenamiento", "difficulty": d}, http.StatusCreated)
		c := decode[bankCase](t, e.do(tutor, "GET", "/api/admin/cases/"+a.Case.ID, nil))
		if c.Difficulty != d {
			t.Fatalf("asked %s, drew %s (%s)", d, c.Title, c.Difficulty)
		}
		e.mustAttempt(studentInGrp, "POST", "/api/attempts/"+a.ID+"/abandon", nil, http.StatusOK)
	}
	if res := e.do(studentInGrp, "POST", "/api/attempts", map[string]string{"mode": "entrenamiento", "difficulty": "facil"}); res.Code != 400 {
		t.Fatalf("unknown difficulty = %d %s", res.Code, res.Body)
	}

	// A mock exam follows the degree's mix: all advanced here.
	bp := decode[map[string]any](t, e.do(tutor, "GET", "/api/admin/config/derecho", nil))["blueprint"].(map[string]any)
	if mix := bp["difficultyMix"].(map[string]any); mix["basico"] != 25.0 || mix["intermedio"] != 50.0 || mix["avanzado"] != 25.0 {
		t.Fatalf("default mix = %v", mix)
	}
	bp["difficultyMix"] = map[string]int{"basico": 50, "intermedio": 60, "avanzado": 0}
	if res := e.do(tutor, "PUT", "/api/admin/config/derecho/blueprint", bp); res.Code != 400 || !strings.Contains(res.Body.String(), "deben sumar 100 (suman 110)") {
		t.Fatalf("mix summing 110 = %d %s", res.Code, res.Body)
	}
	bp["difficultyMix"] = map[string]int{"basico": 0, "intermedio": 0, "avanzado": 100}
	if res := e.do(tutor, "PUT", "/api/admin/config/derecho/blueprint", bp); res.Code != 200 {
		t.Fatalf("mix = %d %s", res.Code, res.Body)
	}
	for range 3 {
		e.clock.Advance(time.Second)
		a := e.mustAttempt(studentInGrp, "POST", "/api/attempts", map[string]string{"mode": "simulacro", "difficulty": "basico"}, http.StatusCreated)
		if c := decode[bankCase](t, e.do(tutor, "GET", "/api/admin/cases/"+a.Case.ID, nil)); c.Difficulty != "avanzado" {
			t.Fatalf("mock exam with mix 0/0/100 drew %s (%s)", c.Title, c.Difficulty)
		}
		e.finish(studentInGrp, a, 3) // an abandoned mock exam would be served again
	}
}

func TestRevealLinksEachLegalBaseToItsNorm(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.start(studentInGrp, "entrenamiento")
	res := e.do(studentInGrp, "GET", "/api/attempts/"+a.ID, nil)
	before := decode[struct {
		Case bankCase `json:"case"`
	}](t, res)
	if len(before.Case.FollowUpKeyPoints) != 0 || len(before.Case.LegalBases) != 0 || before.Case.Review != nil {
		t.Fatalf("answers shown before the self-assessment: %+v", before.Case)
	}
	e.finish(studentInGrp, a, 3)
	after := decode[struct {
		Case bankCase `json:"case"`
	}](t, e.do(studentInGrp, "GET", "/api/attempts/"+a.ID, nil)).Case
	if len(after.FollowUpKeyPoints) == 0 || len(after.LegalBases) == 0 {
		t.Fatalf("revealed case without answers: %+v", after)
	}
	for _, b := range after.LegalBases {
		if !strings.HasPrefix(b.URL, "https://") || !strings.HasPrefix(b.Label, "art. ") || b.Note == "" {
			t.Fatalf("legal base %+v: want an https link, a label and a description", b)
		}
	}
}
