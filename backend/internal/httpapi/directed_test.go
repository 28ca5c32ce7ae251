package httpapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/exams"
)

// A directed training start says where its draw aimed: with no results yet
// it says so and draws from the whole bank; after a finished attempt it
// names the area the student did worst in. A mock exam never carries it.
func TestDirectedStartSaysWhy(t *testing.T) {
	e := newEnv(t)
	type directedResp struct {
		Directed *struct {
			Area   string `json:"area"`
			Reason string `json:"reason"`
		} `json:"directed"`
	}
	body := map[string]any{"mode": "entrenamiento", "directed": true}
	res := e.do(studentInGrp, http.MethodPost, "/api/attempts", body)
	if res.Code != http.StatusCreated {
		t.Fatalf("directed start = %d: %s", res.Code, res.Body)
	}
	first := decode[directedResp](t, res)
	if first.Directed == nil || first.Directed.Reason != exams.NoTargetReason || first.Directed.Area != "" {
		t.Fatalf("directed without history = %+v", first.Directed)
	}
	a := decode[attemptResp](t, res)
	e.finish(studentInGrp, a, 2)

	res = e.do(studentInGrp, http.MethodPost, "/api/attempts", body)
	second := decode[directedResp](t, res)
	if res.Code != http.StatusCreated || second.Directed == nil || second.Directed.Area != a.Case.Area ||
		!strings.HasPrefix(second.Directed.Reason, "Área con menor promedio en sus últimos intentos: "+a.Case.Area) {
		t.Fatalf("directed after one attempt = %d %+v (area %q)", res.Code, second.Directed, a.Case.Area)
	}
	// Starting again returns the attempt in progress, with no reason.
	if again := decode[directedResp](t, e.do(studentInGrp, http.MethodPost, "/api/attempts", body)); again.Directed != nil {
		t.Fatalf("resumed attempt carries a reason: %+v", again.Directed)
	}
}
