package httpapi_test

// Regressions of the security review's probes for F-02 (a tutor takes a
// student over), F-04 (recording storage without an effective limit) and
// F-20 (other bytes resent to a complete recording). They use only the
// API as it was when the review ran, and each failed before its fix.

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// F-02: POST /api/admin/group/students accepted a student of another
// tutor's active group, and the student's next attempt went to the newer
// group's tutor.
func TestF02AnotherTutorCannotTakeOverAStudent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	const member = "con.grupo@utpl.edu.ec" // in the tutor's active group
	if res := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", "g.csv",
		[]byte(spanishHeader+"propio@utpl.edu.ec,Derecho\n"))); res.Code != http.StatusCreated {
		t.Fatalf("the other tutor's load = %d %s", res.Code, res.Body)
	}
	refused := func(what string, res *httptest.ResponseRecorder) {
		t.Helper()
		body, code := res.Body.String(), res.Code
		if code != http.StatusConflict || !strings.Contains(body, `"code":"students_in_other_group"`) ||
			!strings.Contains(body, "«"+member+"» ya pertenece al grupo activo de otro docente") {
			t.Fatalf("%s = %d %s; want 409 students_in_other_group naming %s", what, code, body, member)
		}
		if strings.Contains(body, "tutor@utpl.edu.ec") || strings.Contains(body, e.group.ID) {
			t.Fatalf("%s reveals the other group or its tutor: %s", what, body)
		}
	}
	res := e.do(otherTutor, http.MethodPost, "/api/admin/group/students", map[string]any{"emails": []string{"nuevo@utpl.edu.ec", member}})
	refused("adding by email", res)
	res = e.do(otherTutor, http.MethodPost, "/api/admin/group/students/file", multipartFile(t, "file", "mas.csv",
		[]byte(spanishHeader+"nuevo@utpl.edu.ec,Derecho\n"+strings.ToUpper(member)+",Derecho\n")))
	refused("adding from a file", res)
	if !strings.Contains(res.Body.String(), `"row":3`) {
		t.Fatalf("the file's row is not named: %s", res.Body)
	}
	// Nothing was added, and the other tutor does not see the student.
	list := e.do(otherTutor, http.MethodGet, "/api/admin/group/students", nil)
	if list.Code != 200 || strings.Contains(list.Body.String(), member) || strings.Contains(list.Body.String(), "nuevo@utpl.edu.ec") {
		t.Fatalf("the other tutor's students = %d %s", list.Code, list.Body)
	}
	// Loading a group is refused the same way.
	if res := e.do(otherTutor, http.MethodPost, "/api/admin/group/finalize", nil); res.Code != 200 {
		t.Fatalf("finalize = %d", res.Code)
	}
	res = e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", "g.csv", []byte(spanishHeader+member+",Derecho\n")))
	refused("loading a group", res)
	if g := e.do(otherTutor, http.MethodGet, "/api/admin/group", nil); !strings.Contains(g.Body.String(), `"group":null`) {
		t.Fatalf("a refused load created a group: %s", g.Body)
	}
	// The student's next attempt belongs to their tutor's group.
	a := e.start(studentInGrp, "entrenamiento")
	if res := e.do(tutor, http.MethodGet, "/api/attempts/"+a.ID, nil); res.Code != 200 || !strings.Contains(res.Body.String(), `"groupId":"`+e.group.ID+`"`) {
		t.Fatalf("the student's tutor reads the new attempt = %d %s", res.Code, res.Body)
	}
	if res := e.do(otherTutor, http.MethodGet, "/api/attempts/"+a.ID, nil); res.Code != 404 {
		t.Fatalf("the other tutor reads the new attempt = %d", res.Code)
	}
}

// F-02 under a race: two tutors add the same student at once; exactly one
// gets them.
func TestF02TwoTutorsAddingTheSameStudentAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	if res := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", "g.csv",
		[]byte(spanishHeader+"propio@utpl.edu.ec,Derecho\n"))); res.Code != http.StatusCreated {
		t.Fatalf("the other tutor's load = %d %s", res.Code, res.Body)
	}
	for round := range 3 {
		student := fmt.Sprintf("disputado%d@utpl.edu.ec", round)
		codes := make([]int, 2)
		var wg sync.WaitGroup
		for i, role := range []string{tutor, otherTutor} {
			wg.Go(func() {
				codes[i] = e.do(role, http.MethodPost, "/api/admin/group/students", map[string]any{"emails": []string{student}}).Code
			})
		}
		wg.Wait()
		if !(codes[0] == 200 && codes[1] == 409 || codes[0] == 409 && codes[1] == 200) {
			t.Fatalf("round %d: the two additions = %v; want one 200 and one 409", round, codes)
		}
		in := 0
		for _, role := range []string{tutor, otherTutor} {
			if strings.Contains(e.do(role, http.MethodGet, "/api/admin/group/students", nil).Body.String(), student) {
				in++
			}
		}
		if in != 1 {
			t.Fatalf("round %d: %s is in %d groups", round, student, in)
		}
	}
}

// F-04: the 64 MiB cap was checked before the chunk was written and
// compared the bytes already stored, so a recording reached 66 MiB one
// chunk at a time and 84 MiB with parallel uploads.
func TestF04RecordingCapCannotBeRaced(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := attemptFixture(e) // the recording holds a 16-byte chunk 0
	base := "/api/attempts/" + ids["attempt"] + "/recordings/" + ids["rec"]
	chunk := bytes.Repeat([]byte{0x4f}, 2<<20)
	const chunks, parallel = 40, 16
	codes := make([]int, chunks)
	var wg sync.WaitGroup
	next := make(chan int)
	for range parallel {
		wg.Go(func() {
			for seq := range next {
				codes[seq-1] = e.do(studentInGrp, http.MethodPut, fmt.Sprintf("%s/chunks/%d", base, seq), chunk).Code
			}
		})
	}
	for seq := 1; seq <= chunks; seq++ {
		next <- seq
	}
	close(next)
	wg.Wait()
	accepted := 0
	for _, c := range codes {
		switch c {
		case 200:
			accepted++
		case 400, 409: // refused (400 was the code before the fix; the end pins 409)
		default:
			t.Fatalf("a chunk was answered %d", c)
		}
	}
	a := e.mustAttempt(studentInGrp, http.MethodGet, "/api/attempts/"+ids["attempt"], nil, 200)
	const limit = 64 << 20
	if got := a.Recordings[0].Bytes; got > limit || accepted != 31 {
		t.Fatalf("the recording holds %d bytes (%.1f MiB) from %d accepted chunks; want at most %d (64 MiB): 31 chunks of 2 MiB after the first",
			got, float64(got)/(1<<20), accepted, limit)
	}
	res := e.do(studentInGrp, http.MethodPut, base+"/chunks/99", chunk)
	if got := decode[apiError](t, res); res.Code != 409 || got.Error.Code != "recording_too_large" || !strings.Contains(got.Error.Message, "64 MB") {
		t.Fatalf("a chunk over the cap = %d %+v", res.Code, got.Error)
	}
}

// F-04: 300 takes of one phase were accepted; a phase now has at most 5
// takes in Entrenamiento and 2 in Simulacro, also when registered at once.
func TestF04TakesPerPhaseAreCapped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.start(studentInGrp, "entrenamiento")
	base := "/api/attempts/" + a.ID
	e.mustAttempt(studentInGrp, http.MethodPost, base+"/advance", map[string]int{"from": 0}, 200)
	take := func(i int) int {
		return e.do(studentInGrp, http.MethodPut, fmt.Sprintf("%s/recordings/toma-%04d-aaaa", base, i), map[string]any{"phase": 1, "mimeType": "audio/webm"}).Code
	}
	for i := range 5 {
		if c := take(i); c != 200 {
			t.Fatalf("take %d = %d", i, c)
		}
	}
	e.expectRefusal(studentInGrp, http.MethodPut, base+"/recordings/toma-0005-aaaa", map[string]any{"phase": 1, "mimeType": "audio/webm"}, 409, "too_many_takes")
	if c := take(2); c != 200 {
		t.Fatalf("retrying a registered take at the cap = %d", c)
	}
	if n := len(e.mustAttempt(studentInGrp, http.MethodGet, base, nil, 200).Recordings); n != 5 {
		t.Fatalf("%d takes stored, want 5", n)
	}

	// Simulacro, registrations at once.
	e.mustAttempt(studentInGrp, http.MethodPost, base+"/abandon", nil, 200)
	m := e.start(studentInGrp, "simulacro")
	mbase := "/api/attempts/" + m.ID
	e.mustAttempt(studentInGrp, http.MethodPost, mbase+"/advance", map[string]int{"from": 0}, 200)
	codes := make([]int, 8)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Go(func() {
			codes[i] = e.do(studentInGrp, http.MethodPut, fmt.Sprintf("%s/recordings/sim-%04d-aaaa", mbase, i), map[string]any{"phase": 1, "mimeType": "audio/webm"}).Code
		})
	}
	wg.Wait()
	ok := 0
	for _, c := range codes {
		if c == 200 {
			ok++
		} else if c != 409 {
			t.Fatalf("a take was answered %d", c)
		}
	}
	if n := len(e.mustAttempt(studentInGrp, http.MethodGet, mbase, nil, 200).Recordings); ok != 2 || n != 2 {
		t.Fatalf("%d racing takes accepted, %d stored; want 2", ok, n)
	}
}

// F-04: a student could start attempts without limit (each one more room
// for takes); now at most 20 in 24 hours.
func TestF04AttemptsPerDayAreCapped(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i := range 20 {
		a := e.start(studentInGrp, "entrenamiento")
		e.mustAttempt(studentInGrp, http.MethodPost, "/api/attempts/"+a.ID+"/abandon", nil, 200)
		if i == 0 {
			e.clock.Advance(time.Hour) // the first one is the first to leave the window
		}
	}
	res := e.do(studentInGrp, http.MethodPost, "/api/attempts", map[string]string{"mode": "entrenamiento"})
	got := decode[apiError](t, res)
	if res.Code != http.StatusTooManyRequests || got.Error.Code != "too_many_attempts" || !strings.Contains(got.Error.Message, "20 intentos") ||
		res.Header().Get("Retry-After") != "82800" {
		t.Fatalf("the 21st attempt = %d %+v (Retry-After %q); want 429 too_many_attempts, 23 hours", res.Code, got.Error, res.Header().Get("Retry-After"))
	}
	e.clock.Advance(23 * time.Hour)
	e.start(studentInGrp, "entrenamiento")
}

// F-20: resending other bytes under a stored number of a complete
// recording was answered 200 with the old acknowledgement.
func TestF20OtherBytesToACompleteRecordingAreAConflict(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := attemptFixture(e)
	base := "/api/attempts/" + ids["attempt"] + "/recordings/" + ids["rec"]
	if res := e.do(studentInGrp, http.MethodPost, base+"/complete", map[string]any{"chunks": 1, "durationMs": 2000}); res.Code != 200 {
		t.Fatalf("complete = %d %s", res.Code, res.Body)
	}
	if res := e.do(studentInGrp, http.MethodPut, base+"/chunks/0", []byte("OggS-fragmento-0")); res.Code != 200 {
		t.Fatalf("the same bytes again = %d %s (a retry must be acknowledged)", res.Code, res.Body)
	}
	e.expectRefusal(studentInGrp, http.MethodPut, base+"/chunks/0", []byte("otros bytes"), 409, "chunk_conflict")
	e.expectRefusal(studentInGrp, http.MethodPut, base+"/chunks/1", []byte("nuevo"), 409, "recording_closed")
	if res := e.do(studentInGrp, http.MethodGet, base+"/media", nil); res.Body.String() != "OggS-fragmento-0" {
		t.Fatalf("media = %q", res.Body)
	}
}
