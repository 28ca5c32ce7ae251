package httpapi_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
)

const memberMail = "con.grupo@utpl.edu.ec"

func TestAuthorizationRemoveStudent(t *testing.T) {
	t.Parallel()
	runScenarios(t, func(t *testing.T) *env { return newEnv(t) }, []scenario{
		// The tutor's member; the other tutor has no active group.
		{method: http.MethodPost, path: "/api/admin/group/students/remove", body: func(*env) any { return map[string]string{"email": memberMail} },
			want: map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 204, otherTutor: 404}},
	})
}

// otherGroupStudent gives the other tutor an active group with a student
// who signs in as role "otherMember".
func (e *env) otherGroupStudent(email string) string {
	e.t.Helper()
	const role = "otherMember"
	if res := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(e.t, "file", "g.csv",
		[]byte(spanishHeader+email+",Derecho\n"))); res.Code != http.StatusCreated {
		e.t.Fatalf("the other tutor's load = %d %s", res.Code, res.Body)
	}
	e.signIn(role, email)
	return role
}

// signIn creates a student profile for email and signs it in as role.
func (e *env) signIn(role, email string) {
	e.t.Helper()
	if _, err := e.auth.CreateUser(context.Background(), email, testPassword, domain.RoleStudent, "Estudiante "+role); err != nil {
		e.t.Fatal(err)
	}
	res := e.do(guest, http.MethodPost, "/api/auth/login", map[string]string{"email": email, "password": testPassword})
	if res.Code != 200 {
		e.t.Fatalf("login = %d %s", res.Code, res.Body)
	}
	e.cookies = maps.Clone(e.cookies) // the template's map is shared by every test
	e.cookies[role] = sessionCookie(e.t, res)
}

// Every role, including a student of another tutor's group, against
// removing a student: only the group's tutor removes, and only from their
// own active group.
func TestRemoveStudentByEveryRole(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := e.otherGroupStudent("ajeno@utpl.edu.ec")
	for _, tc := range []struct {
		role, email string
		status      int
		code        string
	}{
		{guest, memberMail, 401, "unauthenticated"},
		{studentNoGrp, memberMail, 403, "forbidden"},
		{other, memberMail, 403, "forbidden"},
		{studentInGrp, memberMail, 403, "forbidden"},
		{other, "ajeno@utpl.edu.ec", 403, "forbidden"},
		{otherTutor, memberMail, 404, "student_not_in_group"}, // the tutor's member is not theirs
		{tutor, "ajeno@utpl.edu.ec", 404, "student_not_in_group"},
		{tutor, "nadie@utpl.edu.ec", 404, "student_not_in_group"},
	} {
		res := e.do(tc.role, http.MethodPost, "/api/admin/group/students/remove", map[string]string{"email": tc.email})
		if got := decode[apiError](t, res); res.Code != tc.status || got.Error.Code != tc.code {
			t.Errorf("%s removing %s = %d %+v, want %d %s", tc.role, tc.email, res.Code, got.Error, tc.status, tc.code)
		}
	}
	// Nobody was removed.
	for role, email := range map[string]string{tutor: memberMail, otherTutor: "ajeno@utpl.edu.ec"} {
		if body := e.do(role, http.MethodGet, "/api/admin/group/students", nil).Body.String(); !strings.Contains(body, email) {
			t.Fatalf("%s's group lost %s: %s", role, email, body)
		}
	}
	// An address escaped in the path is the same address.
	if res := e.do(tutor, http.MethodPost, "/api/admin/group/students/remove", map[string]string{"email": "CON.GRUPO@utpl.edu.ec"}); res.Code != 204 {
		t.Fatalf("remove with an escaped @ = %d %s", res.Code, res.Body)
	}
	if res := e.do(tutor, http.MethodPost, "/api/admin/group/finalize", nil); res.Code != 200 {
		t.Fatal(res.Code)
	}
	e.expectRefusal(tutor, http.MethodPost, "/api/admin/group/students/remove", map[string]string{"email": memberMail}, 404, "no_active_group")
}

// A removed student loses /test at once; their attempts stay in the group
// they were made in, for the tutor to see and grade.
func TestRemovedStudentLosesTheSimulatorAndKeepsTheirAttempts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	finished := e.finish(studentInGrp, e.start(studentInGrp, "entrenamiento"), 3)
	inProgress := e.start(studentInGrp, "simulacro")
	if res := e.do(tutor, http.MethodPost, "/api/admin/group/students/remove", map[string]string{"email": memberMail}); res.Code != 204 {
		t.Fatalf("remove = %d %s", res.Code, res.Body)
	}
	for _, path := range []string{"/api/test/access", "/api/exam/overview"} {
		e.expectRefusal(studentInGrp, http.MethodGet, path, nil, 403, "no_active_group")
	}
	e.expectRefusal(studentInGrp, http.MethodPost, "/api/attempts", map[string]string{"mode": "entrenamiento"}, 403, "no_active_group")
	// The student still reads their attempts and may end the one under way.
	e.mustAttempt(studentInGrp, http.MethodGet, "/api/attempts/"+finished.ID, nil, 200)
	e.mustAttempt(studentInGrp, http.MethodPost, "/api/attempts/"+inProgress.ID+"/abandon", nil, 200)
	// The tutor still sees and grades them.
	list := e.do(tutor, http.MethodGet, "/api/admin/students/"+e.users[studentInGrp].ID+"/attempts", nil)
	if list.Code != 200 || !strings.Contains(list.Body.String(), finished.ID) || !strings.Contains(list.Body.String(), inProgress.ID) {
		t.Fatalf("the tutor's list of the removed student = %d %s", list.Code, list.Body)
	}
	if q := e.do(tutor, http.MethodGet, "/api/admin/grading", nil); !strings.Contains(q.Body.String(), finished.ID) {
		t.Fatalf("grading queue = %s", q.Body)
	}
	e.mustAttempt(tutor, http.MethodPost, "/api/attempts/"+finished.ID+"/grade", map[string]any{"levels": levelsAll(finished, 3), "comments": ""}, 200)
	if body := e.do(tutor, http.MethodGet, "/api/admin/group/students", nil).Body.String(); strings.Contains(body, memberMail) {
		t.Fatalf("the removed student is still listed: %s", body)
	}
}

// An attempt belongs to the group it was started in: after the student
// moves to another tutor's group, the old tutor keeps the old attempts and
// the new tutor sees only the new ones.
func TestAttemptsStayWithTheGroupTheyStartedIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	old := e.finish(studentInGrp, e.start(studentInGrp, "entrenamiento"), 3)
	if res := e.do(tutor, http.MethodPost, "/api/admin/group/students/remove", map[string]string{"email": memberMail}); res.Code != 204 {
		t.Fatalf("remove = %d", res.Code)
	}
	if res := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", "g.csv",
		[]byte(spanishHeader+memberMail+",Derecho\n"))); res.Code != http.StatusCreated {
		t.Fatalf("the other tutor's load = %d %s", res.Code, res.Body)
	}
	e.clock.Advance(time.Minute)
	fresh := e.finish(studentInGrp, e.start(studentInGrp, "entrenamiento"), 2)

	for _, tc := range []struct {
		role        string
		sees, hides attemptResp
	}{{tutor, old, fresh}, {otherTutor, fresh, old}} {
		e.mustAttempt(tc.role, http.MethodGet, "/api/attempts/"+tc.sees.ID, nil, 200)
		e.expectRefusal(tc.role, http.MethodGet, "/api/attempts/"+tc.hides.ID, nil, 404, "attempt_not_found")
		e.expectRefusal(tc.role, http.MethodGet, "/api/attempts/"+tc.hides.ID+"/recordings/x/media", nil, 404, "attempt_not_found")
		e.expectRefusal(tc.role, http.MethodPost, "/api/attempts/"+tc.hides.ID+"/grade", map[string]any{"levels": levelsAll(tc.hides, 3), "comments": ""}, 404, "attempt_not_found")
		for _, path := range []string{"/api/admin/students/" + e.users[studentInGrp].ID + "/attempts", "/api/admin/grading"} {
			body := e.do(tc.role, http.MethodGet, path, nil).Body.String()
			if !strings.Contains(body, tc.sees.ID) || strings.Contains(body, tc.hides.ID) {
				t.Fatalf("%s %s = %s; want %s and not %s", tc.role, path, body, tc.sees.ID, tc.hides.ID)
			}
		}
		e.mustAttempt(tc.role, http.MethodPost, "/api/attempts/"+tc.sees.ID+"/grade", map[string]any{"levels": levelsAll(tc.sees, 3), "comments": ""}, 200)
	}
	// The student sees both.
	mine := e.do(studentInGrp, http.MethodGet, "/api/me/attempts", nil).Body.String()
	if !strings.Contains(mine, old.ID) || !strings.Contains(mine, fresh.ID) {
		t.Fatalf("the student's history = %s", mine)
	}
}

// The storage quota counts every recording of the student that is not
// deleted, holds under racing uploads, and deleting a recording frees it.
func TestStorageQuotaAcrossRecordings(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *config.Config) { c.StudentStorageQuotaMB = 1 })
	const size = 100 << 10 // 10 chunks fill 1 MiB but for 24 KiB
	chunk := bytes.Repeat([]byte{1}, size)
	a := e.start(studentInGrp, "entrenamiento")
	base := "/api/attempts/" + a.ID
	e.mustAttempt(studentInGrp, http.MethodPost, base+"/advance", map[string]int{"from": 0}, 200)
	var recs []string
	for i := range 3 {
		rid := fmt.Sprintf("%s/recordings/cuota-%04d-aaaa", base, i)
		if res := e.do(studentInGrp, http.MethodPut, rid, map[string]any{"phase": 1, "mimeType": "audio/webm"}); res.Code != 200 {
			t.Fatalf("take %d = %d", i, res.Code)
		}
		recs = append(recs, rid)
	}
	// Four chunks to each of three takes at once: 12 × 100 KiB for 1 MiB.
	var wg sync.WaitGroup
	codes := make(chan int, 12)
	for _, rid := range recs {
		for seq := range 4 {
			wg.Go(func() { codes <- e.do(studentInGrp, http.MethodPut, fmt.Sprintf("%s/chunks/%d", rid, seq), chunk).Code })
		}
	}
	wg.Wait()
	close(codes)
	ok := 0
	for c := range codes {
		if c == 200 {
			ok++
		} else if c != 409 {
			t.Fatalf("a chunk was answered %d", c)
		}
	}
	got := e.mustAttempt(studentInGrp, http.MethodGet, base, nil, 200)
	var total int64
	for _, r := range got.Recordings {
		total += r.Bytes
	}
	if ok != 10 || total != 10*size {
		t.Fatalf("%d chunks accepted, %d bytes stored; want 10 chunks within 1 MiB", ok, total)
	}
	res := e.do(studentInGrp, http.MethodPut, recs[0]+"/chunks/9", chunk)
	if got := decode[apiError](t, res); res.Code != 409 || got.Error.Code != "storage_quota_exceeded" || !strings.Contains(got.Error.Message, "1 MB") {
		t.Fatalf("a chunk over the quota = %d %+v", res.Code, got.Error)
	}
	// Deleting a recording gives its bytes back.
	if res := e.do(studentInGrp, http.MethodDelete, recs[0], nil); res.Code != 204 {
		t.Fatalf("delete = %d", res.Code)
	}
	freed := 0
	for seq := range 8 {
		switch res := e.do(studentInGrp, http.MethodPut, fmt.Sprintf("%s/chunks/%d", recs[1], 4+seq), chunk); res.Code {
		case 200:
			freed++
		case 409:
		default:
			t.Fatalf("chunk after the deletion = %d %s", res.Code, res.Body)
		}
	}
	if freed == 0 {
		t.Fatal("deleting a recording freed nothing")
	}
	got = e.mustAttempt(studentInGrp, http.MethodGet, base, nil, 200)
	total = 0
	for _, r := range got.Recordings {
		total += r.Bytes
	}
	if total != 10*size {
		t.Fatalf("after deleting and uploading again the student holds %d bytes; want %d (the quota, full again)", total, 10*size)
	}
}
