package httpapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/xuri/excelize/v2"
)

const rosterCSV = "email;name;degree;department;faculty;modality\n" +
	"ana.perez@utpl.edu.ec;Ana Pérez;Derecho;Ciencias Jurídicas;Ciencias Sociales;Distancia\n" +
	"LUIS.ruiz@utpl.edu.ec;Luis Ruiz;derecho;Ciencias Jurídicas;Ciencias Sociales;Distancia\n"

func rosterBody(t *testing.T, content string) func(*env) any {
	return func(*env) any { return multipartFile(t, "file", "grupo.csv", []byte(content)) }
}

type groupResp struct {
	Skipped bool `json:"skipped"`
	Added   int  `json:"added"`
	Group   struct {
		ID            string `json:"id"`
		Carrera       string `json:"carrera"`
		CarreraNombre string `json:"carreraNombre"`
		Status        string `json:"status"`
		Modalidad     string `json:"modalidad"`
		Docente       struct{ Email string }
		Estudiantes   []struct {
			Email    string `json:"email"`
			Attempts []any  `json:"attempts"`
		} `json:"estudiantes"`
	} `json:"group"`
}

func TestAuthorizationGroups(t *testing.T) {
	adminOnly := func(tutorStatus, otherStatus int) map[string]int {
		return map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: tutorStatus, otherTutor: otherStatus}
	}
	runScenarios(t, func(t *testing.T) *env { return newEnv(t) }, []scenario{
		{method: http.MethodGet, path: "/api/admin/group", want: adminOnly(200, 200)},
		// The tutor already has a group (skipped, 200); the other tutor creates one.
		{method: http.MethodPost, path: "/api/admin/group", body: rosterBody(t, rosterCSV), want: adminOnly(200, 201)},
		{method: http.MethodPost, path: "/api/admin/group/students", body: func(*env) any { return map[string]any{"emails": []string{"nuevo@utpl.edu.ec"}} },
			want: adminOnly(200, 404)},
		{method: http.MethodPost, path: "/api/admin/group/students/file", body: rosterBody(t, rosterCSV), want: adminOnly(200, 404)},
		{method: http.MethodPost, path: "/api/admin/group/finalize", want: adminOnly(200, 404)},
		{method: http.MethodGet, path: "/api/admin/group/students", want: adminOnly(200, 404)},
		{method: http.MethodGet, path: "/api/admin/groups", want: adminOnly(200, 200)},
		{method: http.MethodGet, path: "/api/admin/groups/" + template.group.ID, want: adminOnly(200, 404)},
		{method: http.MethodGet, path: "/api/admin/students/search?q=grupo", want: adminOnly(200, 200)},
	})
}

func TestLoadGroupFromCSVAndXLSX(t *testing.T) {
	f := excelize.NewFile()
	_ = f.SetSheetRow("Sheet1", "A1", &[]any{"Correo", "Nombre", "Carrera", "Departamento", "Facultad", "Modalidad"})
	_ = f.SetSheetRow("Sheet1", "A2", &[]any{"maria.lopez@utpl.edu.ec", "María López", "DERECHO", "Ciencias Jurídicas", "Ciencias Sociales", "Distancia"})
	xlsx, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string][]byte{"grupo.csv": []byte(rosterCSV), "grupo.xlsx": xlsx.Bytes()} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			res := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", name, body))
			if res.Code != http.StatusCreated {
				t.Fatalf("load = %d %s", res.Code, res.Body)
			}
			g := decode[groupResp](t, res)
			if g.Skipped || g.Group.Status != "activo" || g.Group.Carrera != "derecho" || g.Group.CarreraNombre != "Derecho" ||
				g.Group.Docente.Email != "otro.tutor@utpl.edu.ec" || g.Group.Modalidad != "Distancia" || len(g.Group.Estudiantes) == 0 {
				t.Fatalf("group = %+v", g)
			}
			for _, s := range g.Group.Estudiantes {
				if s.Email != strings.ToLower(s.Email) || s.Attempts == nil || len(s.Attempts) != 0 {
					t.Fatalf("student = %+v", s)
				}
			}
			// A second load while the group is active is skipped silently.
			again := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", "otro.csv",
				[]byte("email,degree\nzeta@utpl.edu.ec,Derecho\n")))
			ag := decode[groupResp](t, again)
			if again.Code != http.StatusOK || !ag.Skipped || ag.Group.ID != g.Group.ID || len(ag.Group.Estudiantes) != len(g.Group.Estudiantes) {
				t.Fatalf("second load = %d %+v", again.Code, ag)
			}
		})
	}
}

func TestBadRostersNameRowAndColumnAndWriteNothing(t *testing.T) {
	for name, tc := range map[string]struct {
		file, content string
		status        int
		want          string // a problem must contain it
	}{
		"invalid email":   {"g.csv", "email,degree\nana@utpl.edu.ec,Derecho\nno-es-correo,Derecho\n", 400, `"row":3,"column":"email"`},
		"repeated email":  {"g.csv", "correo,carrera\nana@utpl.edu.ec,Derecho\nANA@utpl.edu.ec,Derecho\n", 400, `"row":3,"column":"correo"`},
		"missing column":  {"g.csv", "email,name\nana@utpl.edu.ec,Ana\n", 400, `carrera`},
		"unknown degree":  {"g.csv", "email,degree\nana@utpl.edu.ec,Medicina\n", 400, `"row":2,"column":"carrera","message":"La carrera «Medicina» no existe."`},
		"mixed degrees":   {"g.csv", "email,degree\na@utpl.edu.ec,Derecho\nb@utpl.edu.ec,Medicina\n", 400, `"row":3`},
		"not a roster":    {"g.pdf", "%PDF-1.4", 400, `.csv`},
		"unreadable xlsx": {"g.xlsx", "esto no es un excel", 400, `Excel`},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			res := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", tc.file, []byte(tc.content)))
			if res.Code != tc.status || !strings.Contains(res.Body.String(), tc.want) {
				t.Fatalf("= %d %s; want %d containing %s", res.Code, res.Body, tc.status, tc.want)
			}
			if got := decode[apiError](t, res); got.Error.Code != "invalid_roster" {
				t.Fatalf("code = %s", got.Error.Code)
			}
			assertNoGroup(t, e, otherTutor)
		})
	}
}

func assertNoGroup(t *testing.T, e *env, role string) {
	t.Helper()
	res := e.do(role, http.MethodGet, "/api/admin/group", nil)
	if strings.TrimSpace(res.Body.String()) != `{"group":null}` {
		t.Fatalf("a group was written: %s", res.Body)
	}
}

func TestOversizedRosterIsRefusedBeforeParsing(t *testing.T) {
	e := newEnv(t)
	big := "email,degree\n" + strings.Repeat("alguien@utpl.edu.ec,Derecho\n", (3<<20)/28)
	res := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", "g.csv", []byte(big)))
	if res.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("= %d", res.Code)
	}
	if got := decode[apiError](t, res); got.Error.Message != "El archivo supera el límite de 2 MB." {
		t.Fatalf("message = %q", got.Error.Message)
	}
	assertNoGroup(t, e, otherTutor)
}

func TestTooManyRows(t *testing.T) {
	e := newEnv(t)
	var b strings.Builder
	b.WriteString("email,degree\n")
	for i := range 5001 {
		fmt.Fprintf(&b, "e%d@utpl.edu.ec,Derecho\n", i)
	}
	res := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", "g.csv", []byte(b.String())))
	if res.Code != http.StatusBadRequest || !strings.Contains(res.Body.String(), "5000") {
		t.Fatalf("= %d %s", res.Code, res.Body)
	}
	assertNoGroup(t, e, otherTutor)
}

func TestConcurrentLoadsLeaveOneActiveGroup(t *testing.T) {
	e := newEnv(t)
	const n = 6
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf("email,degree\ns%d@utpl.edu.ec,Derecho\n", i)
			codes[i] = e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", "g.csv", []byte(body))).Code
		}()
	}
	wg.Wait()
	created := 0
	for _, c := range codes {
		switch c {
		case http.StatusCreated:
			created++
		case http.StatusOK:
		default:
			t.Fatalf("codes = %v", codes)
		}
	}
	if created != 1 {
		t.Fatalf("%d loads created a group (codes %v), want exactly 1", created, codes)
	}
	var history []json.RawMessage
	history = decode[[]json.RawMessage](t, e.do(otherTutor, http.MethodGet, "/api/admin/groups", nil))
	if len(history) != 1 {
		t.Fatalf("tutor has %d groups", len(history))
	}
}

func TestAddStudents(t *testing.T) {
	e := newEnv(t)
	add := func(emails ...string) (int, groupResp, apiError) {
		res := e.do(tutor, http.MethodPost, "/api/admin/group/students", map[string]any{"emails": emails})
		var ae apiError
		_ = json.Unmarshal(res.Body.Bytes(), &ae)
		var g groupResp
		_ = json.Unmarshal(res.Body.Bytes(), &g)
		return res.Code, g, ae
	}
	// One new, one already present (case differs): only the new one is added.
	code, g, _ := add("Nueva.Estudiante@utpl.edu.ec", "CON.GRUPO@utpl.edu.ec", "nueva.estudiante@utpl.edu.ec")
	if code != 200 || g.Added != 1 || len(g.Group.Estudiantes) != 2 {
		t.Fatalf("add = %d %+v", code, g)
	}
	// All already present: the spec's error.
	code, _, ae := add("con.grupo@utpl.edu.ec", "nueva.estudiante@utpl.edu.ec")
	if code != 409 || ae.Error.Code != "students_already_in_group" || ae.Error.Message != "Los estudiantes ya están en el grupo" {
		t.Fatalf("all present = %d %+v", code, ae)
	}
	// An invalid email names its position and adds nothing.
	code, _, ae = add("bien@utpl.edu.ec", "mal@")
	if code != 400 || !strings.Contains(string(ae.Error.Details), `"row":2,"column":"correo"`) {
		t.Fatalf("invalid = %d %+v", code, ae)
	}
	if code, _, ae = add(); code != 400 || ae.Error.Code != "invalid_emails" {
		t.Fatalf("empty = %d %+v", code, ae)
	}
	members := decode[struct {
		Students []struct {
			Email      string `json:"email"`
			Registered bool   `json:"registered"`
			Name       string `json:"name"`
		} `json:"students"`
	}](t, e.do(tutor, http.MethodGet, "/api/admin/group/students", nil))
	if len(members.Students) != 2 {
		t.Fatalf("members = %+v", members)
	}
	for _, m := range members.Students {
		wantRegistered := m.Email == "con.grupo@utpl.edu.ec"
		if m.Registered != wantRegistered {
			t.Errorf("%s registered = %v", m.Email, m.Registered)
		}
	}
	// From a roster file, with the same filtering.
	res := e.do(tutor, http.MethodPost, "/api/admin/group/students/file", multipartFile(t, "file", "mas.csv", []byte(rosterCSV)))
	if g := decode[groupResp](t, res); res.Code != 200 || g.Added != 2 {
		t.Fatalf("file add = %d %s", res.Code, res.Body)
	}
	res = e.do(tutor, http.MethodPost, "/api/admin/group/students/file", multipartFile(t, "file", "mas.csv", []byte(rosterCSV)))
	if res.Code != 409 {
		t.Fatalf("file add again = %d %s", res.Code, res.Body)
	}
}

func TestFinalizeEndsStudentAccess(t *testing.T) {
	e := newEnv(t)
	if res := e.do(studentInGrp, http.MethodGet, "/api/test/access", nil); res.Code != 200 {
		t.Fatalf("member before finalize = %d", res.Code)
	}
	res := e.do(tutor, http.MethodPost, "/api/admin/group/finalize", nil)
	if g := decode[groupResp](t, res); res.Code != 200 || g.Group.Status != "finalizado" {
		t.Fatalf("finalize = %d %s", res.Code, res.Body)
	}
	if res := e.do(studentInGrp, http.MethodGet, "/api/test/access", nil); res.Code != 403 {
		t.Fatalf("member after finalize = %d", res.Code)
	}
	res = e.do(tutor, http.MethodPost, "/api/admin/group/finalize", nil)
	if ae := decode[apiError](t, res); res.Code != 404 || ae.Error.Message != "No hay grupo activo" {
		t.Fatalf("finalize again = %d %+v", res.Code, ae)
	}
	// The finalized group is read-only history the tutor can still open.
	if res := e.do(tutor, http.MethodGet, "/api/admin/groups/"+e.group.ID, nil); res.Code != 200 || !strings.Contains(res.Body.String(), `"status":"finalizado"`) {
		t.Fatalf("history = %d %s", res.Code, res.Body)
	}
	if res := e.do(tutor, http.MethodPost, "/api/admin/group/students", map[string]any{"emails": []string{"x@utpl.edu.ec"}}); res.Code != 404 {
		t.Fatalf("add after finalize = %d", res.Code)
	}
	// And a new group can be loaded.
	if res := e.do(tutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", "g.csv", []byte(rosterCSV))); res.Code != 201 {
		t.Fatalf("load after finalize = %d %s", res.Code, res.Body)
	}
}

func TestSearchStudents(t *testing.T) {
	e := newEnv(t)
	type u struct {
		Mail string `json:"mail"`
	}
	found := decode[[]u](t, e.do(tutor, http.MethodGet, "/api/admin/students/search?q=grupo", nil))
	// sin.grupo is registered and outside the group; con.grupo is already in it.
	if len(found) != 1 || found[0].Mail != "sin.grupo@utpl.edu.ec" {
		t.Fatalf("search = %+v", found)
	}
	if found := decode[[]u](t, e.do(tutor, http.MethodGet, "/api/admin/students/search?q=tutor", nil)); len(found) != 0 {
		t.Fatalf("tutors are not students: %+v", found)
	}
	if found := decode[[]u](t, e.do(tutor, http.MethodGet, "/api/admin/students/search?q=a", nil)); len(found) != 0 {
		t.Fatalf("one-letter query: %+v", found)
	}
}
