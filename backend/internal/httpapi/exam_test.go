package httpapi_test

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
)

type phaseResp struct {
	Kind      string  `json:"kind"`
	Index     int     `json:"index"`
	LimitSec  int     `json:"limitSec"`
	StartedAt *string `json:"startedAt"`
	EndedAt   *string `json:"endedAt"`
	Deadline  *string `json:"deadline"`
	UsedSec   int     `json:"usedSec"`
	Skipped   bool    `json:"skipped"`
	Recorded  bool    `json:"recorded"`
}

type attemptResp struct {
	ID      string `json:"id"`
	Mode    string `json:"mode"`
	Status  string `json:"status"`
	Current int    `json:"current"`
	Case    struct {
		ID         string   `json:"id"`
		Title      string   `json:"title"`
		Area       string   `json:"area"`
		KeyPoints  []string `json:"keyPoints"`
		LegalBases []any    `json:"legalBases"`
		FollowUps  []string `json:"followUps"`
	} `json:"case"`
	Phases         []phaseResp `json:"phases"`
	SelfAssessment *struct {
		Score float64 `json:"score"`
	} `json:"selfAssessment"`
	TutorGrade *struct {
		Score    float64 `json:"score"`
		Comments string  `json:"comments"`
		By       string  `json:"by"`
	} `json:"tutorGrade"`
	Rubric struct {
		Version  int `json:"version"`
		Criteria []struct {
			ID string `json:"id"`
		} `json:"criteria"`
	} `json:"rubric"`
	Recordings []recordingResp `json:"recordings"`
}

type recordingResp struct {
	ID       string `json:"id"`
	Phase    int    `json:"phase"`
	Chunks   int    `json:"chunks"`
	Bytes    int64  `json:"bytes"`
	Complete bool   `json:"complete"`
	Deleted  bool   `json:"deleted"`
	Late     bool   `json:"late"`
}

func (e *env) mustAttempt(role, method, path string, body any, want int) attemptResp {
	e.t.Helper()
	res := e.do(role, method, path, body)
	if res.Code != want {
		e.t.Fatalf("%s %s as %s = %d, want %d: %s", method, path, role, res.Code, want, res.Body)
	}
	return decode[attemptResp](e.t, res)
}

func (e *env) start(role, mode string) attemptResp {
	e.t.Helper()
	return e.mustAttempt(role, http.MethodPost, "/api/attempts", map[string]string{"mode": mode}, http.StatusCreated)
}

func levelsAll(a attemptResp, level int) map[string]int {
	out := map[string]int{}
	for _, c := range a.Rubric.Criteria {
		out[c.ID] = level
	}
	return out
}

// finish runs an attempt to the end by server time and self-assesses it.
func (e *env) finish(role string, a attemptResp, level int) attemptResp {
	e.t.Helper()
	e.clock.Advance(3 * time.Hour)
	return e.mustAttempt(role, http.MethodPost, "/api/attempts/"+a.ID+"/self-assessment",
		map[string]any{"levels": levelsAll(a, level)}, http.StatusOK)
}

const recID = "rec-0001-aaaa-bbbb"

// attemptFixture: the member student has a training attempt in its
// presentation with a recording holding one chunk.
func attemptFixture(e *env) map[string]string {
	a := e.start(studentInGrp, "entrenamiento")
	e.mustAttempt(studentInGrp, http.MethodPost, "/api/attempts/"+a.ID+"/advance", map[string]int{"from": 0}, http.StatusOK)
	if res := e.do(studentInGrp, http.MethodPut, "/api/attempts/"+a.ID+"/recordings/"+recID,
		map[string]any{"phase": 1, "mimeType": "audio/webm;codecs=opus"}); res.Code != 200 {
		e.t.Fatalf("fixture recording: %d %s", res.Code, res.Body)
	}
	if res := e.do(studentInGrp, http.MethodPut, "/api/attempts/"+a.ID+"/recordings/"+recID+"/chunks/0", []byte("OggS-fragmento-0")); res.Code != 200 {
		e.t.Fatalf("fixture chunk: %d %s", res.Code, res.Body)
	}
	return map[string]string{"attempt": a.ID, "rec": recID}
}

func caseFixture(e *env) map[string]string {
	list := decode[[]struct {
		ID string `json:"id"`
	}](e.t, e.do(tutor, http.MethodGet, "/api/admin/cases", nil))
	return map[string]string{"case": list[0].ID}
}

func newCaseBody(title string) map[string]any {
	return map[string]any{"degreeId": "derecho", "area": "Civil", "title": title, "facts": "Un arrendatario deja de pagar.",
		"questions": []string{"¿Qué acción procede?"}, "followUps": []string{"¿Qué artículo?", "¿Ante qué juez?"},
		"keyPoints": []string{"Terminación del contrato"}, "legalBases": []map[string]string{{"norm": "Código Civil", "article": "1453"}}, "difficulty": "basico",
		"status": "active", "demo": false}
}

func TestAuthorizationSimulator(t *testing.T) {
	t.Parallel()
	var (
		onlyTestTakers = func(ok int) map[string]int {
			return map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: ok, tutor: ok, otherTutor: ok}
		}
		// The member owns the attempt; its group's tutor may see it but not act
		// as the student; everyone else is told it does not exist.
		ownerOnly = func(ok int) map[string]int {
			return map[string]int{guest: 401, studentNoGrp: 404, studentInGrp: ok, tutor: 403, otherTutor: 404}
		}
		viewers = func(ok int) map[string]int {
			return map[string]int{guest: 401, studentNoGrp: 404, studentInGrp: ok, tutor: ok, otherTutor: 404}
		}
		signedIn = func(ok int) map[string]int {
			return map[string]int{guest: 401, studentNoGrp: ok, studentInGrp: ok, tutor: ok, otherTutor: ok}
		}
		tutors = func(ok int) map[string]int {
			return map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: ok, otherTutor: ok}
		}
		body = func(v any) func(*env) any { return func(*env) any { return v } }
	)
	bp := map[string]any{"preparationSec": 900, "presentationSec": 600, "questions": 2, "thinkSec": 20, "answerSec": 120, "closingSec": 60, "defaultMode": "simulacro"}
	runScenarios(t, func(t *testing.T) *env { return newEnv(t) }, []scenario{
		{method: "GET", path: "/api/exam/overview", want: onlyTestTakers(200)},
		{method: "POST", path: "/api/attempts", body: body(map[string]string{"mode": "simulacro"}), want: onlyTestTakers(201)},
		{method: "GET", path: "/api/attempts/{attempt}", fixture: attemptFixture, want: viewers(200)},
		{method: "POST", path: "/api/attempts/{attempt}/advance", fixture: attemptFixture, body: body(map[string]int{"from": 0}), want: ownerOnly(200)},
		{method: "POST", path: "/api/attempts/{attempt}/skip", fixture: attemptFixture, body: body(map[string]int{"from": 0}), want: ownerOnly(200)},
		{method: "POST", path: "/api/attempts/{attempt}/pause", fixture: attemptFixture, want: ownerOnly(200)},
		{method: "POST", path: "/api/attempts/{attempt}/resume", fixture: attemptFixture, want: ownerOnly(200)},
		{method: "PUT", path: "/api/attempts/{attempt}/notes", fixture: attemptFixture, body: body(map[string]string{"notes": "Hechos"}), want: ownerOnly(204)},
		// Authorized, but the attempt is still in preparation.
		{method: "POST", path: "/api/attempts/{attempt}/self-assessment", fixture: attemptFixture, body: body(map[string]any{"levels": map[string]int{}}), want: ownerOnly(409)},
		{method: "POST", path: "/api/attempts/{attempt}/abandon", fixture: attemptFixture, want: ownerOnly(200)},
		// Only the group's tutor may grade; the attempt is not finished yet.
		{method: "POST", path: "/api/attempts/{attempt}/grade", fixture: attemptFixture, body: body(map[string]any{"levels": map[string]int{}}),
			want: map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 409, otherTutor: 404}},
		{method: "PUT", path: "/api/attempts/{attempt}/recordings/rec-0002-cccc-dddd", fixture: attemptFixture,
			body: body(map[string]any{"phase": 1, "mimeType": "audio/webm"}), want: ownerOnly(200)},
		{method: "PUT", path: "/api/attempts/{attempt}/recordings/{rec}/chunks/1", fixture: attemptFixture, body: body([]byte("fragmento-1")), want: ownerOnly(200)},
		{method: "POST", path: "/api/attempts/{attempt}/recordings/{rec}/complete", fixture: attemptFixture,
			body: body(map[string]any{"chunks": 1, "durationMs": 2000}), want: ownerOnly(200)},
		{method: "GET", path: "/api/attempts/{attempt}/recordings/{rec}/media", fixture: attemptFixture, want: viewers(200)},
		{method: "DELETE", path: "/api/attempts/{attempt}/recordings/{rec}", fixture: attemptFixture, want: ownerOnly(204)},
		{method: "GET", path: "/api/me/attempts", want: signedIn(200)},
		{method: "GET", path: "/api/me/progress", want: signedIn(200)},
		{method: "GET", path: "/api/rubric", want: signedIn(200)},
		{method: "GET", path: "/api/admin/grading", want: tutors(200)},
		{method: "GET", path: "/api/admin/students/{member}/attempts", fixture: func(e *env) map[string]string {
			return map[string]string{"member": e.users[studentInGrp].ID}
		}, want: tutors(200)},
		{method: "GET", path: "/api/admin/cases", want: tutors(200)},
		{method: "POST", path: "/api/admin/cases", body: body(newCaseBody("Arrendamiento impago")), want: tutors(201)},
		{method: "GET", path: "/api/admin/cases/{case}", fixture: caseFixture, want: tutors(200)},
		{method: "PUT", path: "/api/admin/cases/{case}", fixture: caseFixture, body: body(newCaseBody("Arrendamiento editado")), want: tutors(200)},
		{method: "POST", path: "/api/admin/cases/{case}/review", fixture: caseFixture, want: tutors(200)},
		{method: "POST", path: "/api/admin/cases/import", body: func(e *env) any {
			return multipartFile(e.t, "file", "casos.json", mustJSON(e.t, []any{exchangeCase("Importado por prueba")}))
		}, want: tutors(200)},
		{method: "GET", path: "/api/admin/cases/export?format=csv", want: tutors(200)},
		{method: "GET", path: "/api/admin/config/derecho", want: tutors(200)},
		{method: "PUT", path: "/api/admin/config/derecho/blueprint", body: body(bp), want: tutors(200)},
		{method: "PUT", path: "/api/admin/config/derecho/rubric", body: func(e *env) any {
			r := decode[map[string]any](e.t, e.do(tutor, "GET", "/api/rubric", nil))
			return map[string]any{"criteria": r["criteria"], "passScore": 7}
		}, want: tutors(200)},
	})
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func exchangeCase(title string) map[string]any {
	c := newCaseBody(title)
	delete(c, "degreeId")
	c["degree"] = "Derecho"
	return c
}

func TestMockExamRunsByServerTime(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.start(studentInGrp, "simulacro")
	if a.Current != 0 || a.Phases[0].Kind != "preparation" || a.Phases[0].LimitSec != 1200 || a.Phases[0].Deadline == nil {
		t.Fatalf("fresh attempt = %+v", a)
	}
	if len(a.Case.KeyPoints) != 0 || len(a.Case.LegalBases) != 0 {
		t.Fatal("key points and legal bases shown before the self-assessment")
	}
	// Starting again returns the same attempt: no second draw.
	again := e.mustAttempt(studentInGrp, "POST", "/api/attempts", map[string]string{"mode": "simulacro"}, http.StatusOK)
	if again.ID != a.ID {
		t.Fatal("a second start drew a new case")
	}
	base := "/api/attempts/" + a.ID
	// Phases cannot be skipped, paused or reopened in a mock exam.
	for _, tc := range []struct{ path, body, code string }{
		{"/advance", `{"from": 2}`, "phase_order"},
		{"/skip", `{"from": 0}`, "mode_forbids"},
		{"/pause", `{}`, "mode_forbids"},
	} {
		res := e.do(studentInGrp, "POST", base+tc.path, tc.body)
		if got := decode[apiError](t, res); res.Code != 409 || got.Error.Code != tc.code {
			t.Errorf("%s = %d %+v, want 409 %s", tc.path, res.Code, got.Error, tc.code)
		}
	}
	e.clock.Advance(5 * time.Minute)
	a = e.mustAttempt(studentInGrp, "POST", base+"/advance", map[string]int{"from": 0}, 200)
	if a.Current != 1 || a.Phases[0].UsedSec != 300 {
		t.Fatalf("after finishing preparation early: current %d used %d", a.Current, a.Phases[0].UsedSec)
	}
	// The browser vanishes for 11 minutes; server time closes the presentation
	// at its limit (10 min) and the first think time (20 s) after it.
	e.clock.Advance(11 * time.Minute)
	a = e.mustAttempt(studentInGrp, "GET", base, nil, 200)
	if a.Current != 3 || a.Phases[1].UsedSec != 600 || a.Phases[2].UsedSec != 20 || a.Phases[3].Kind != "answer" || a.Phases[3].UsedSec != 40 {
		t.Fatalf("after the presentation limit: current %d, phases %+v", a.Current, a.Phases[:4])
	}
	// A late "advance" of the presentation does not reopen or move anything.
	a = e.mustAttempt(studentInGrp, "POST", base+"/advance", map[string]int{"from": 1}, 200)
	if a.Current != 3 {
		t.Fatalf("late advance moved the attempt to %d", a.Current)
	}
	// Self-assessment only at the end; then the case is revealed and nothing changes.
	if res := e.do(studentInGrp, "POST", base+"/self-assessment", map[string]any{"levels": levelsAll(a, 3)}); res.Code != 409 {
		t.Fatalf("early self-assessment = %d", res.Code)
	}
	a = e.finish(studentInGrp, a, 3)
	if a.Status != "finished" || a.SelfAssessment == nil || a.SelfAssessment.Score != 7.5 || len(a.Case.KeyPoints) == 0 || len(a.Case.LegalBases) == 0 {
		t.Fatalf("finished attempt = %+v", a)
	}
	for _, tc := range []struct{ path, body string }{
		{"/advance", `{"from": 0}`}, {"/self-assessment", `{"levels": {}}`}, {"/abandon", `{}`},
	} {
		if res := e.do(studentInGrp, "POST", base+tc.path, tc.body); res.Code != 409 {
			t.Errorf("%s on a finished attempt = %d", tc.path, res.Code)
		}
	}
	if res := e.do(studentInGrp, "PUT", base+"/notes", `{"notes":"tarde"}`); res.Code != 409 {
		t.Errorf("notes on a finished attempt = %d", res.Code)
	}
}

func TestTrainingPauseAndSkip(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.start(studentInGrp, "entrenamiento")
	base := "/api/attempts/" + a.ID
	e.mustAttempt(studentInGrp, "POST", base+"/pause", nil, 200)
	e.clock.Advance(time.Hour)
	a = e.mustAttempt(studentInGrp, "POST", base+"/resume", nil, 200)
	if a.Current != 0 {
		t.Fatal("the paused preparation expired")
	}
	a = e.mustAttempt(studentInGrp, "POST", base+"/skip", map[string]int{"from": 0}, 200)
	if a.Current != 1 || !a.Phases[0].Skipped {
		t.Fatalf("skip: %+v", a.Phases[0])
	}
}

func TestDrawAvoidsRecentAndRetiredCases(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := decode[[]struct {
		ID   string `json:"id"`
		Area string `json:"area"`
	}](t, e.do(tutor, "GET", "/api/admin/cases?area=Laboral", nil))
	if len(cases) < 5 {
		t.Fatalf("demo bank has %d Laboral cases", len(cases))
	}
	// Retire all but three Laboral cases.
	for _, c := range cases[3:] {
		full := decode[map[string]any](t, e.do(tutor, "GET", "/api/admin/cases/"+c.ID, nil))
		full["status"] = "retired"
		if res := e.do(tutor, "PUT", "/api/admin/cases/"+c.ID, full); res.Code != 200 {
			t.Fatalf("retire: %d %s", res.Code, res.Body)
		}
	}
	active := map[string]bool{cases[0].ID: true, cases[1].ID: true, cases[2].ID: true}
	var seen []string
	for i := range 6 {
		a := e.mustAttempt(studentInGrp, "POST", "/api/attempts", map[string]string{"mode": "entrenamiento", "area": "Laboral"}, 201)
		if !active[a.Case.ID] {
			t.Fatalf("draw %d gave a retired case %s", i, a.Case.ID)
		}
		if a.Case.Area != "Laboral" {
			t.Fatalf("area filter ignored: %s", a.Case.Area)
		}
		// Each of the last two draws is avoided while a fresh case remains.
		if i > 0 && a.Case.ID == seen[len(seen)-1] {
			t.Fatalf("draw %d repeated the previous case", i)
		}
		if i%3 == 2 && (a.Case.ID == seen[len(seen)-1] || a.Case.ID == seen[len(seen)-2]) {
			t.Fatalf("draw %d repeated a recent case while another was fresh", i)
		}
		seen = append(seen, a.Case.ID)
		e.mustAttempt(studentInGrp, "POST", "/api/attempts/"+a.ID+"/abandon", nil, 200)
	}
	// A mock exam ignores the area: the student cannot choose.
	a := e.mustAttempt(studentInGrp, "POST", "/api/attempts", map[string]string{"mode": "simulacro", "area": "Laboral"}, 201)
	if a.Mode != "simulacro" {
		t.Fatal(a.Mode)
	}
}

func TestRecordingUploadIsChunkedIdempotentAndSeekable(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.start(studentInGrp, "simulacro")
	base := "/api/attempts/" + a.ID + "/recordings/" + recID
	if res := e.do(studentInGrp, "PUT", base, map[string]any{"phase": 0, "mimeType": "audio/webm"}); res.Code != 400 {
		t.Fatalf("recording the preparation = %d", res.Code)
	}
	e.mustAttempt(studentInGrp, "POST", "/api/attempts/"+a.ID+"/advance", map[string]int{"from": 0}, 200)
	for range 2 {
		res := e.do(studentInGrp, "PUT", base, map[string]any{"phase": 1, "mimeType": "audio/webm;codecs=opus"})
		if r := decode[recordingResp](t, res); res.Code != 200 || r.Late {
			t.Fatalf("create recording = %d %s", res.Code, res.Body)
		}
	}
	parts := []string{"chunk-zero|", "chunk-one|", "chunk-two"}
	put := func(seq int, data string, headers ...string) int {
		req := e.do(studentInGrp, "PUT", fmt.Sprintf("%s/chunks/%d", base, seq), []byte(data), headers...)
		return req.Code
	}
	if c := put(0, parts[0]); c != 200 {
		t.Fatalf("chunk 0 = %d", c)
	}
	if c := put(0, parts[0]); c != 200 {
		t.Fatalf("the same chunk again = %d (a retry after a lost response must succeed)", c)
	}
	if c := put(0, "otro contenido"); c != 409 {
		t.Fatalf("different content under the same seq = %d", c)
	}
	if c := put(2, parts[2]); c != 200 {
		t.Fatalf("chunk 2 = %d", c)
	}
	res := e.do(studentInGrp, "POST", base+"/complete", map[string]any{"chunks": 3, "durationMs": 6000})
	if got := decode[apiError](t, res); res.Code != 409 || got.Error.Code != "chunks_missing" || !strings.Contains(string(got.Error.Details), "[1]") {
		t.Fatalf("complete with a gap = %d %+v", res.Code, got.Error)
	}
	if c := put(1, parts[1], "X-Chunk-SHA256", strings.Repeat("0", 64)); c != 400 {
		t.Fatalf("corrupt chunk (hash mismatch) = %d", c)
	}
	if c := put(1, parts[1]); c != 200 {
		t.Fatalf("chunk 1 = %d", c)
	}
	// Chunks and the complete call of a take registered in time are accepted
	// after its phase ended (uploads lag behind recording); the take is not late.
	e.clock.Advance(3 * time.Hour)
	res = e.do(studentInGrp, "POST", base+"/complete", map[string]any{"chunks": 3, "durationMs": 6000, "levels": []float64{0.1, 2, -1}})
	if r := decode[recordingResp](t, res); res.Code != 200 || !r.Complete || r.Late {
		t.Fatalf("complete = %d %s", res.Code, res.Body)
	}
	if c := put(3, "late"); c != 409 {
		t.Fatalf("a chunk after completion = %d", c)
	}
	whole := strings.Join(parts, "")
	for _, role := range []string{studentInGrp, tutor} {
		res := e.do(role, "GET", base+"/media", nil)
		if res.Code != 200 || res.Body.String() != whole || res.Header().Get("Content-Type") != "audio/webm;codecs=opus" ||
			res.Header().Get("Accept-Ranges") != "bytes" {
			t.Fatalf("media as %s = %d %q %v", role, res.Code, res.Body, res.Header())
		}
	}
	res = e.do(tutor, "GET", base+"/media", nil, "Range", "bytes=8-17")
	if res.Code != http.StatusPartialContent || res.Body.String() != whole[8:18] {
		t.Fatalf("range = %d %q", res.Code, res.Body)
	}
	// Oversized chunks are refused before they are stored.
	big := bytes.Repeat([]byte("a"), 2<<20+10)
	if c := put(9, string(big)); c != 413 {
		t.Fatalf("oversized chunk = %d", c)
	}
}

func TestStudentDeletesARecordingAndKeepsTheScore(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := attemptFixture(e)
	a := e.mustAttempt(studentInGrp, "GET", "/api/attempts/"+ids["attempt"], nil, 200)
	// A second part of the presentation (a reload), registered in time.
	second := "/api/attempts/" + a.ID + "/recordings/rec-part-0002-dddd"
	if res := e.do(studentInGrp, "PUT", second, map[string]any{"phase": 1, "mimeType": "audio/webm"}); res.Code != 200 {
		t.Fatalf("second part = %d %s", res.Code, res.Body)
	}
	a = e.finish(studentInGrp, a, 4)
	base := "/api/attempts/" + a.ID + "/recordings/" + recID
	if res := e.do(studentInGrp, "DELETE", base, nil); res.Code != 204 {
		t.Fatalf("delete = %d", res.Code)
	}
	a = e.mustAttempt(studentInGrp, "GET", "/api/attempts/"+a.ID, nil, 200)
	if a.SelfAssessment == nil || a.SelfAssessment.Score != 10 || len(a.Recordings) != 2 || a.Recordings[0].ID != recID || !a.Recordings[0].Deleted ||
		a.Recordings[0].Chunks != 0 || a.Recordings[1].Deleted || a.Recordings[1].Late {
		t.Fatalf("after delete: %+v", a)
	}
	for _, role := range []string{studentInGrp, tutor} {
		if res := e.do(role, "GET", base+"/media", nil); res.Code != 404 {
			t.Fatalf("deleted media as %s = %d", role, res.Code)
		}
	}
	// Deleting again is harmless; the score stays after the tutor grades too.
	if res := e.do(studentInGrp, "DELETE", base, nil); res.Code != 204 {
		t.Fatalf("delete again = %d", res.Code)
	}
	e.mustAttempt(tutor, "POST", "/api/attempts/"+a.ID+"/grade", map[string]any{"levels": levelsAll(a, 3), "comments": ""}, 200)
	if res := e.do(studentInGrp, "DELETE", second, nil); res.Code != 204 {
		t.Fatalf("delete after the grade = %d", res.Code)
	}
	a = e.mustAttempt(studentInGrp, "GET", "/api/attempts/"+a.ID, nil, 200)
	if a.SelfAssessment.Score != 10 || a.TutorGrade == nil || a.TutorGrade.Score != 7.5 || !a.Recordings[1].Deleted {
		t.Fatalf("after deleting both: %+v", a)
	}
}

// expectRefusal checks a request fails with status and the error code.
func (e *env) expectRefusal(role, method, path string, body any, status int, code string) {
	e.t.Helper()
	res := e.do(role, method, path, body)
	if got := decode[apiError](e.t, res); res.Code != status || got.Error.Code != code || got.Error.Message == "" {
		e.t.Fatalf("%s %s = %d %+v, want %d %s", method, path, res.Code, got.Error, status, code)
	}
}

func TestNewTakesFollowTheServerPhases(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.start(studentInGrp, "entrenamiento")
	base := "/api/attempts/" + a.ID
	take := func(rid string, phase int) (int, recordingResp) {
		res := e.do(studentInGrp, "PUT", base+"/recordings/"+rid, map[string]any{"phase": phase, "mimeType": "audio/webm;codecs=opus"})
		if res.Code != 200 {
			return res.Code, recordingResp{}
		}
		return res.Code, decode[recordingResp](t, res)
	}
	// A phase that has not started: the presentation during the preparation,
	// an answer during the presentation.
	e.expectRefusal(studentInGrp, "PUT", base+"/recordings/rec-future-0001", map[string]any{"phase": 1, "mimeType": "audio/webm"}, 409, "phase_not_started")
	e.mustAttempt(studentInGrp, "POST", base+"/advance", map[string]int{"from": 0}, 200)
	e.expectRefusal(studentInGrp, "PUT", base+"/recordings/rec-future-0002", map[string]any{"phase": 3, "mimeType": "audio/webm"}, 409, "phase_not_started")
	if code, r := take("rec-intime-0001", 1); code != 200 || r.Late {
		t.Fatalf("take during its phase = %d %+v", code, r)
	}
	// Server time starts a phase even when the browser did not say so: the
	// presentation (10 min) and the first think time (20 s) ran out.
	e.clock.Advance(10*time.Minute + 21*time.Second)
	if code, r := take("rec-answer-0001", 3); code != 200 || r.Late {
		t.Fatalf("take of the answer under way = %d %+v", code, r)
	}
	// A take of the presentation registered after it ended (a lagging
	// upload, or recorded afterwards): kept, and marked late.
	code, r := take("rec-late-0001", 1)
	if code != 200 || !r.Late {
		t.Fatalf("late take = %d %+v", code, r)
	}
	// A retry of a registered take answers the same.
	if code, again := take("rec-late-0001", 1); code != 200 || again != r {
		t.Fatalf("retry = %d %+v", code, again)
	}
	got := e.mustAttempt(tutor, "GET", base, nil, 200)
	late := map[string]bool{}
	for _, r := range got.Recordings {
		late[r.ID] = r.Late
	}
	if len(late) != 3 || late["rec-intime-0001"] || late["rec-answer-0001"] || !late["rec-late-0001"] {
		t.Fatalf("late flags the tutor sees = %v", late)
	}

	// Finished, not graded: a lagging take still registers (late).
	e.finish(studentInGrp, got, 3)
	if code, r := take("rec-after-0001", 3); code != 200 || !r.Late {
		t.Fatalf("take after the self-assessment = %d %+v", code, r)
	}
	// Graded: no new take at all, whatever the phase.
	e.mustAttempt(tutor, "POST", base+"/grade", map[string]any{"levels": levelsAll(got, 3), "comments": ""}, 200)
	for _, phase := range []int{1, 3} {
		e.expectRefusal(studentInGrp, "PUT", base+"/recordings/rec-graded-000"+fmt.Sprint(phase), map[string]any{"phase": phase, "mimeType": "audio/webm"}, 409, "attempt_graded")
	}
	if n := len(e.mustAttempt(studentInGrp, "GET", base, nil, 200).Recordings); n != 4 {
		t.Fatalf("%d recordings after the refusals, want 4", n)
	}
}

func TestMockExamTakeOfAnEndedPhaseIsMarkedLate(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.start(studentInGrp, "simulacro")
	base := "/api/attempts/" + a.ID
	e.mustAttempt(studentInGrp, "POST", base+"/advance", map[string]int{"from": 0}, 200)
	e.clock.Advance(time.Minute)
	a = e.mustAttempt(studentInGrp, "POST", base+"/advance", map[string]int{"from": 1}, 200)
	if a.Current != 2 {
		t.Fatalf("current = %d", a.Current)
	}
	// Recording the presentation again once it ended is not possible in a
	// mock exam: such a take is kept but shown as late.
	e.clock.Advance(10 * time.Second)
	res := e.do(studentInGrp, "PUT", base+"/recordings/rec-again-0001", map[string]any{"phase": 1, "mimeType": "audio/webm"})
	if r := decode[recordingResp](t, res); res.Code != 200 || !r.Late {
		t.Fatalf("take of the ended presentation = %d %s", res.Code, res.Body)
	}
	a = e.mustAttempt(tutor, "GET", base, nil, 200)
	if len(a.Recordings) != 1 || !a.Recordings[0].Late {
		t.Fatalf("recordings = %+v", a.Recordings)
	}
}

func TestTutorGradesAndStudentSeesIt(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.finish(studentInGrp, e.start(studentInGrp, "simulacro"), 2)
	queue := decode[[]struct {
		ID        string   `json:"id"`
		SelfScore *float64 `json:"selfScore"`
	}](t, e.do(tutor, "GET", "/api/admin/grading", nil))
	if len(queue) != 1 || queue[0].ID != a.ID || *queue[0].SelfScore != 5 {
		t.Fatalf("queue = %+v", queue)
	}
	if q := decode[[]any](t, e.do(otherTutor, "GET", "/api/admin/grading", nil)); len(q) != 0 {
		t.Fatalf("another tutor's queue = %+v", q)
	}
	grade := map[string]any{"levels": levelsAll(a, 4), "comments": "Buena estructura; cite el artículo exacto."}
	if res := e.do(otherTutor, "POST", "/api/attempts/"+a.ID+"/grade", grade); res.Code != 404 {
		t.Fatalf("another tutor grading = %d", res.Code)
	}
	if res := e.do(tutor, "POST", "/api/attempts/"+a.ID+"/grade", map[string]any{"levels": map[string]int{"C1": 4}}); res.Code != 400 {
		t.Fatalf("incomplete grade = %d", res.Code)
	}
	e.mustAttempt(tutor, "POST", "/api/attempts/"+a.ID+"/grade", grade, 200)
	seen := e.mustAttempt(studentInGrp, "GET", "/api/attempts/"+a.ID, nil, 200)
	if seen.TutorGrade == nil || seen.TutorGrade.Score != 10 || seen.TutorGrade.Comments != "Buena estructura; cite el artículo exacto." || seen.TutorGrade.By != "tutor@utpl.edu.ec" {
		t.Fatalf("student sees %+v", seen.TutorGrade)
	}
	if q := decode[[]any](t, e.do(tutor, "GET", "/api/admin/grading", nil)); len(q) != 0 {
		t.Fatalf("graded attempt still queued: %+v", q)
	}
	if list := decode[[]any](t, e.do(tutor, "GET", "/api/admin/students/"+e.users[studentInGrp].ID+"/attempts", nil)); len(list) != 1 {
		t.Fatalf("attempts of the member = %+v", list)
	}
	if list := decode[[]any](t, e.do(otherTutor, "GET", "/api/admin/students/"+e.users[studentInGrp].ID+"/attempts", nil)); len(list) != 0 {
		t.Fatalf("another tutor sees the member's attempts: %+v", list)
	}
	if res := e.do(tutor, "GET", "/api/admin/students/no-such-user/attempts", nil); res.Code != 404 {
		t.Fatalf("attempts of an unknown user = %d", res.Code)
	}
	// The student's progress and the tutor's student list reflect it.
	prog := decode[map[string]any](t, e.do(studentInGrp, "GET", "/api/me/progress", nil))
	if prog["lastScore"].(float64) != 10 || prog["finished"].(float64) != 1 {
		t.Fatalf("progress = %v", prog)
	}
	members := decode[struct {
		Students []struct {
			Email        string   `json:"email"`
			Attempts     int      `json:"attempts"`
			AverageScore *float64 `json:"averageScore"`
		} `json:"students"`
	}](t, e.do(tutor, "GET", "/api/admin/group/students", nil))
	if m := members.Students[0]; m.Attempts != 1 || m.AverageScore == nil || *m.AverageScore != 10 {
		t.Fatalf("members = %+v", members)
	}
}

func TestRubricChangesNeverChangeAGradedScore(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.finish(studentInGrp, e.start(studentInGrp, "simulacro"), 4)
	levels := levelsAll(a, 1)
	levels["C3"] = 4 // weight 20: 20 × 4/4 + 80 × 1/4 = 40 points → 4.0
	e.mustAttempt(tutor, "POST", "/api/attempts/"+a.ID+"/grade", map[string]any{"levels": levels, "comments": ""}, 200)
	r := decode[map[string]any](t, e.do(tutor, "GET", "/api/rubric", nil))
	crit := r["criteria"].([]any)
	crit[2].(map[string]any)["weight"] = 10.0 // C3 20 → 10
	crit[0].(map[string]any)["weight"] = 25.0 // C1 15 → 25
	res := e.do(tutor, "PUT", "/api/admin/config/derecho/rubric", map[string]any{"criteria": crit, "passScore": 7})
	if res.Code != 200 || !strings.Contains(res.Body.String(), `"version":2`) {
		t.Fatalf("rubric update = %d %s", res.Code, res.Body)
	}
	after := e.mustAttempt(studentInGrp, "GET", "/api/attempts/"+a.ID, nil, 200)
	if after.TutorGrade.Score != 4 || after.Rubric.Version != 1 {
		t.Fatalf("graded score changed: %+v (rubric v%d)", after.TutorGrade, after.Rubric.Version)
	}
	crit[0].(map[string]any)["weight"] = 30.0
	res = e.do(tutor, "PUT", "/api/admin/config/derecho/rubric", map[string]any{"criteria": crit, "passScore": 7})
	if got := decode[apiError](t, res); res.Code != 400 || !strings.Contains(got.Error.Message, "sumar 100") {
		t.Fatalf("weights 105 = %d %+v", res.Code, got.Error)
	}
}

func TestBlueprintBoundsAndSnapshots(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	bad := map[string]any{"preparationSec": 5, "presentationSec": 600, "questions": 3, "thinkSec": 20, "answerSec": 120, "closingSec": 60, "defaultMode": "entrenamiento"}
	res := e.do(tutor, "PUT", "/api/admin/config/derecho/blueprint", bad)
	if got := decode[apiError](t, res); res.Code != 400 || !strings.Contains(got.Error.Message, "preparación") {
		t.Fatalf("5 s preparation = %d %+v", res.Code, got.Error)
	}
	if got := decode[apiError](t, res); !strings.Contains(string(got.Error.Details), `"field":"preparationSec"`) {
		t.Fatalf("details = %s", got.Error.Details)
	}
	if res := e.do(tutor, "PUT", "/api/admin/config/nope/blueprint", bad); res.Code != 404 {
		t.Fatalf("unknown degree = %d", res.Code)
	}
	short := newEnv(t, func(c *config.Config) { c.AllowShortTimings = true })
	if res := short.do(tutor, "PUT", "/api/admin/config/derecho/blueprint", bad); res.Code != 200 {
		t.Fatalf("short timings allowed = %d %s", res.Code, res.Body)
	}
	a := short.start(studentInGrp, "simulacro")
	// The case's follow-up questions bound the tribunal's three (the bank
	// has cases with two), so the count depends on the case drawn.
	questions := min(3, len(a.Case.FollowUps))
	if a.Phases[0].LimitSec != 5 || questions < domain.MinFollowUps || len(a.Phases) != 2+2*questions+2 {
		t.Fatalf("attempt does not follow the blueprint (case with %d follow-ups): %+v", len(a.Case.FollowUps), a.Phases)
	}
}

func TestCaseExchangeRoundTrip(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, format := range []string{"json", "csv"} {
		t.Run(format, func(t *testing.T) {
			res := e.do(tutor, "GET", "/api/admin/cases/export?format="+format+"&degree=derecho", nil)
			if res.Code != 200 || !strings.Contains(res.Header().Get("Content-Disposition"), "casos-derecho."+format) {
				t.Fatalf("export = %d %v", res.Code, res.Header())
			}
			exported := res.Body.Bytes()
			if format == "csv" {
				if !bytes.HasPrefix(exported, []byte("\ufeff")) {
					t.Fatal("CSV export without BOM")
				}
				rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(exported, []byte("\ufeff")))).ReadAll()
				if err != nil || len(rows) < 31 || rows[0][0] != "degree" {
					t.Fatalf("CSV = %d rows, %v", len(rows), err)
				}
			}
			imp := e.do(tutor, "POST", "/api/admin/cases/import", multipartFile(t, "file", "casos."+format, exported))
			got := decode[map[string]int](t, imp)
			if imp.Code != 200 || got["created"] != 0 || got["updated"] < 30 {
				t.Fatalf("re-import = %d %v", imp.Code, got)
			}
			again := e.do(tutor, "GET", "/api/admin/cases/export?format="+format+"&degree=derecho", nil)
			if !bytes.Equal(again.Body.Bytes(), exported) {
				t.Fatal("export → import → export is not exact")
			}
		})
	}
}

func TestBadCaseImportNamesRowsAndWritesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	before := e.do(tutor, "GET", "/api/admin/cases/export?format=json", nil).Body.String()
	good := exchangeCase("Caso nuevo válido")
	badDegree := exchangeCase("Otro caso")
	badDegree["degree"] = "Medicina"
	badArticle := exchangeCase("Tercer caso")
	badArticle["legalBases"] = []map[string]string{{"norm": "COIP", "article": "artículo cinco"}}
	res := e.do(tutor, "POST", "/api/admin/cases/import", multipartFile(t, "file", "casos.json", mustJSON(t, []any{good, badDegree, badArticle})))
	body := res.Body.String()
	if res.Code != 400 || !strings.Contains(body, `"row":2,"column":"degree"`) || !strings.Contains(body, `"row":3,"column":"legalBases"`) {
		t.Fatalf("bad import = %d %s", res.Code, body)
	}
	csvBad := "\ufeffdegree,area,title,facts,questions,followUps,keyPoints,legalBases,status,demo\nDerecho,Civil,Uno,Hechos,¿P?,¿F?,K,Código Civil 1453,active,false\n"
	res = e.do(tutor, "POST", "/api/admin/cases/import", multipartFile(t, "file", "casos.csv", []byte(csvBad)))
	if res.Code != 400 || !strings.Contains(res.Body.String(), `"row":2,"column":"legalBases"`) {
		t.Fatalf("bad CSV = %d %s", res.Code, res.Body)
	}
	// Rows are numbered as a spreadsheet shows them: a cell with several
	// lines does not shift the rows after it.
	csvMultiline := "degree,area,title,facts,questions,followUps,keyPoints,legalBases,status,demo\n" +
		"Derecho,Civil,Uno,Hechos,¿P?,\"¿F1?\n¿F2?\",\"K1\nK2\",Código Civil: 1453,active,false\n" +
		"Derecho,Civil,Dos,Hechos,¿P?,\"¿F1?\n¿F2?\",K,Código Civil 1453,active,false\n"
	res = e.do(tutor, "POST", "/api/admin/cases/import", multipartFile(t, "file", "casos.csv", []byte(csvMultiline)))
	if res.Code != 400 || !strings.Contains(res.Body.String(), `"row":3,"column":"legalBases"`) {
		t.Fatalf("multi-line CSV = %d %s", res.Code, res.Body)
	}
	if after := e.do(tutor, "GET", "/api/admin/cases/export?format=json", nil).Body.String(); after != before {
		t.Fatal("a failed import changed the bank")
	}
	var unknownField = `[{"degree":"Derecho","titel":"x"}]`
	res = e.do(tutor, "POST", "/api/admin/cases/import", multipartFile(t, "file", "c.json", []byte(unknownField)))
	if res.Code != 400 || !strings.Contains(res.Body.String(), "titel") {
		t.Fatalf("unknown field = %d %s", res.Code, res.Body)
	}
}

func TestCaseValidationNamesFields(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	body := newCaseBody("")
	body["legalBases"] = []map[string]string{{"norm": "COIP", "article": "x"}}
	res := e.do(tutor, "POST", "/api/admin/cases", body)
	s := res.Body.String()
	if res.Code != 400 || !strings.Contains(s, `"column":"title"`) || !strings.Contains(s, `"column":"legalBases"`) {
		t.Fatalf("invalid case = %d %s", res.Code, s)
	}
	if res := e.do(tutor, "POST", "/api/admin/cases", newCaseBody("Duplicado")); res.Code != 201 {
		t.Fatal(res.Code)
	}
	if res := e.do(tutor, "POST", "/api/admin/cases", newCaseBody("Duplicado")); res.Code != 409 {
		t.Fatalf("duplicate title = %d", res.Code)
	}
}

// addPeer adds another student to the tutor's active group (the member's
// group), signed in as role, and returns that student.
func (e *env) addPeer(role, email string) domain.User {
	e.t.Helper()
	ctx := context.Background()
	u, err := e.auth.CreateUser(ctx, email, testPassword, domain.RoleStudent, "Compañero "+role)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.store.AddGroupStudents(ctx, e.group.ID, []domain.GroupStudent{{Email: email, Name: "Compañero", AddedAt: e.clock.Now()}}); err != nil {
		e.t.Fatal(err)
	}
	res := e.do(guest, "POST", "/api/auth/login", map[string]string{"email": email, "password": testPassword})
	if res.Code != 200 {
		e.t.Fatalf("peer login = %d %s", res.Code, res.Body)
	}
	e.cookies = maps.Clone(e.cookies) // the template's map is shared by every test
	e.cookies[role] = sessionCookie(e.t, res)
	return u
}

func TestAnotherStudentOfTheSameGroupSeesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := attemptFixture(e)
	const peer = "peer"
	e.addPeer(peer, "companero@utpl.edu.ec")
	// The peer is a test taker in the same active group…
	if res := e.do(peer, "GET", "/api/exam/overview", nil); res.Code != 200 {
		t.Fatalf("peer overview = %d %s", res.Code, res.Body)
	}
	// …but the member's attempt and recordings do not exist for them.
	attempt := "/api/attempts/" + ids["attempt"]
	rec := attempt + "/recordings/" + ids["rec"]
	for _, tc := range []struct {
		method, path string
		body         any
	}{
		{"GET", attempt, nil},
		{"GET", rec + "/media", nil},
		{"DELETE", rec, nil},
		{"PUT", rec, map[string]any{"phase": 1, "mimeType": "audio/webm"}},
		{"PUT", rec + "/chunks/1", []byte("intruso")},
		{"POST", rec + "/complete", map[string]any{"chunks": 1, "durationMs": 2000}},
		{"POST", attempt + "/advance", map[string]int{"from": 1}},
		{"POST", attempt + "/abandon", nil},
	} {
		if res := e.do(peer, tc.method, tc.path, tc.body); res.Code != 404 {
			t.Errorf("%s %s as a classmate = %d, want 404", tc.method, tc.path, res.Code)
		}
	}
	// Nothing changed: the recording is there, with its chunk.
	a := e.mustAttempt(studentInGrp, "GET", attempt, nil, 200)
	if a.Status != "in_progress" || len(a.Recordings) != 1 || a.Recordings[0].Deleted || a.Recordings[0].Chunks != 1 {
		t.Fatalf("after the classmate's requests: %+v", a)
	}
	if res := e.do(studentInGrp, "GET", rec+"/media", nil); res.Code != 200 || res.Body.String() != "OggS-fragmento-0" {
		t.Fatalf("media = %d %q", res.Code, res.Body)
	}
}

func TestGradingQueueIsNewestFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.addPeer("peer", "companero@utpl.edu.ec")
	finished := func(role, mode string) string {
		e.clock.Advance(time.Minute)
		return e.finish(role, e.start(role, mode), 3).ID
	}
	first := finished(studentInGrp, "simulacro")
	second := finished("peer", "entrenamiento")
	third := finished(studentInGrp, "entrenamiento")
	graded := finished("peer", "simulacro")
	e.mustAttempt(tutor, "POST", "/api/attempts/"+graded+"/grade", map[string]any{"levels": levelsAll(e.mustAttempt(tutor, "GET", "/api/attempts/"+graded, nil, 200), 2), "comments": ""}, 200)
	e.clock.Advance(time.Minute)
	e.start(studentInGrp, "simulacro") // in progress: not waiting for a grade
	e.clock.Advance(time.Minute)
	abandoned := e.start("peer", "entrenamiento")
	e.mustAttempt("peer", "POST", "/api/attempts/"+abandoned.ID+"/abandon", nil, 200)

	queue := decode[[]struct {
		ID      string `json:"id"`
		Student struct {
			Mail string `json:"mail"`
		} `json:"student"`
	}](t, e.do(tutor, "GET", "/api/admin/grading", nil))
	var got []string
	for _, q := range queue {
		got = append(got, q.ID)
	}
	if want := []string{third, second, first}; !slices.Equal(got, want) {
		t.Fatalf("queue = %v, want newest first %v", got, want)
	}
	if queue[1].Student.Mail != "companero@utpl.edu.ec" || queue[0].Student.Mail != "con.grupo@utpl.edu.ec" {
		t.Fatalf("students = %+v", queue)
	}
}

func TestMockExamCannotBeRedrawnByAbandoning(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	start := func(mode string) attemptResp {
		e.clock.Advance(time.Second) // attempts are ordered by server time
		return e.mustAttempt(studentInGrp, "POST", "/api/attempts", map[string]string{"mode": mode}, 201)
	}
	abandon := func(a attemptResp) {
		e.mustAttempt(studentInGrp, "POST", "/api/attempts/"+a.ID+"/abandon", nil, 200)
	}
	mock := start("simulacro")
	abandon(mock)
	again := start("simulacro")
	if again.ID == mock.ID || again.Case.ID != mock.Case.ID {
		t.Fatalf("after abandoning, a new mock exam drew %s, want the same case %s", again.Case.ID, mock.Case.ID)
	}
	abandon(again)
	// A training attempt in between draws freely (and avoids the recent case)…
	training := start("entrenamiento")
	if training.Case.ID == mock.Case.ID {
		t.Fatal("training drew the recent case")
	}
	abandon(training)
	// …and does not free the mock exam's case.
	third := start("simulacro")
	if third.Case.ID != mock.Case.ID {
		t.Fatalf("after a training, the mock exam drew %s, want %s", third.Case.ID, mock.Case.ID)
	}
	// A finished mock exam ends it: the next one is drawn, avoiding recent cases.
	e.finish(studentInGrp, third, 3)
	fourth := start("simulacro")
	if fourth.Case.ID == mock.Case.ID || fourth.Case.ID == training.Case.ID {
		t.Fatalf("after finishing, the mock exam drew a recent case %s", fourth.Case.ID)
	}
	abandon(fourth)
	// Retired in the meantime: a retired case is never served again.
	full := decode[map[string]any](t, e.do(tutor, "GET", "/api/admin/cases/"+fourth.Case.ID, nil))
	full["status"] = "retired"
	if res := e.do(tutor, "PUT", "/api/admin/cases/"+fourth.Case.ID, full); res.Code != 200 {
		t.Fatalf("retire: %d %s", res.Code, res.Body)
	}
	if fifth := start("simulacro"); fifth.Case.ID == fourth.Case.ID {
		t.Fatal("a retired case was served again")
	}
}

func TestDrawAvoidsTheLastFiveCases(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const areaOfItsOwn = "Derecho Aeronáutico"
	// An area of its own, which the demo bank does not use: six active
	// cases and a retired one.
	active := map[string]bool{}
	for i := range 7 {
		body := newCaseBody(fmt.Sprintf("Caso aeronáutico %d", i+1))
		body["area"] = areaOfItsOwn
		if i == 6 {
			body["status"] = "retired"
		}
		res := e.do(tutor, "POST", "/api/admin/cases", body)
		c := decode[struct {
			ID string `json:"id"`
		}](t, res)
		if res.Code != 201 {
			t.Fatalf("create case: %d %s", res.Code, res.Body)
		}
		if i < 6 {
			active[c.ID] = true
		}
	}
	draw := func() string {
		e.clock.Advance(time.Second) // attempts ordered by server time
		a := e.mustAttempt(studentInGrp, "POST", "/api/attempts", map[string]string{"mode": "entrenamiento", "area": areaOfItsOwn}, 201)
		e.mustAttempt(studentInGrp, "POST", "/api/attempts/"+a.ID+"/abandon", nil, 200)
		if !active[a.Case.ID] {
			t.Fatalf("drew %s, not an active case of the area", a.Case.ID)
		}
		return a.Case.ID
	}
	var seen []string
	for i := range 5 {
		id := draw()
		if slices.Contains(seen, id) {
			t.Fatalf("draw %d repeated %s while fresh cases remained (%v)", i+1, id, seen)
		}
		seen = append(seen, id)
	}
	var rest string
	for id := range active {
		if !slices.Contains(seen, id) {
			rest = id
		}
	}
	if sixth := draw(); sixth != rest {
		t.Fatalf("sixth draw = %s, want the one case not among the last five (%s)", sixth, rest)
	}
	// Now the last five are draws 2–6: the first case is the only fresh one.
	if seventh := draw(); seventh != seen[0] {
		t.Fatalf("seventh draw = %s, want %s", seventh, seen[0])
	}
}

func TestCRLFFactsRoundTripExactly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	c := exchangeCase("Hechos escritos en Windows")
	c["facts"] = "Primer párrafo.\r\nSegundo párrafo.\rTercero."
	if res := e.do(tutor, "POST", "/api/admin/cases/import", multipartFile(t, "file", "casos.json", mustJSON(t, []any{c}))); res.Code != 200 {
		t.Fatalf("import = %d %s", res.Code, res.Body)
	}
	exported := e.do(tutor, "GET", "/api/admin/cases/export?format=json&degree=derecho", nil).Body.String()
	if !strings.Contains(exported, `"Primer párrafo.\nSegundo párrafo.\nTercero."`) {
		t.Fatal("line ends were not normalized on import")
	}
	csvFile := e.do(tutor, "GET", "/api/admin/cases/export?format=csv&degree=derecho", nil).Body.Bytes()
	if res := e.do(tutor, "POST", "/api/admin/cases/import", multipartFile(t, "file", "casos.csv", csvFile)); res.Code != 200 {
		t.Fatalf("CSV re-import = %d %s", res.Code, res.Body)
	}
	if again := e.do(tutor, "GET", "/api/admin/cases/export?format=json&degree=derecho", nil).Body.String(); again != exported {
		t.Fatal("JSON → CSV → JSON changed the bank")
	}
}
