package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

const rosterCSV = "email;name;degree;department;faculty;modality\n" +
	"ana.perez@utpl.edu.ec;Ana Pérez;Derecho;Ciencias Jurídicas;Ciencias Sociales;Distancia\n" +
	"LUIS.ruiz@utpl.edu.ec;Luis Ruiz;derecho;Ciencias Jurídicas;Ciencias Sociales;Distancia\n"

// spanishHeader is the roster header in Spanish, email and degree first so
// that short rows leave the other values empty.
const spanishHeader = "correo,carrera,nombre,departamento,facultad,modalidad\n"

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
		Docente       struct {
			Email string `json:"email"`
		} `json:"docente"`
		Estudiantes []struct {
			Email    string `json:"email"`
			Attempts []any  `json:"attempts"`
		} `json:"estudiantes"`
	} `json:"group"`
}

func TestAuthorizationGroups(t *testing.T) {
	t.Parallel()
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
		// The id comes from the fixture: the template is built by the first newEnv.
		{method: http.MethodGet, path: "/api/admin/groups/{group}", want: adminOnly(200, 404),
			fixture: func(e *env) map[string]string { return map[string]string{"group": e.group.ID} }},
		{method: http.MethodGet, path: "/api/admin/students/search?q=grupo", want: adminOnly(200, 200)},
	})
}

func TestLoadGroupFromCSVAndXLSX(t *testing.T) {
	t.Parallel()
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
			if !strings.Contains(res.Body.String(), `"docente":{"email":"otro.tutor@utpl.edu.ec"}`) {
				t.Fatalf("docente is not {email}: %s", res.Body)
			}
			for _, s := range g.Group.Estudiantes {
				if s.Email != strings.ToLower(s.Email) || s.Attempts == nil || len(s.Attempts) != 0 {
					t.Fatalf("student = %+v", s)
				}
			}
			// A second load while the group is active is skipped silently.
			again := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", "otro.csv",
				[]byte(spanishHeader+"zeta@utpl.edu.ec,Derecho\n")))
			ag := decode[groupResp](t, again)
			if again.Code != http.StatusOK || !ag.Skipped || ag.Group.ID != g.Group.ID || len(ag.Group.Estudiantes) != len(g.Group.Estudiantes) {
				t.Fatalf("second load = %d %+v", again.Code, ag)
			}
		})
	}
}

func TestBadRostersNameRowAndColumnAndWriteNothing(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		file, content string
		want          []string // each must be in the body
	}{
		"invalid email": {"g.csv", "email,degree,name,department,faculty,modality\nana@utpl.edu.ec,Derecho\nno-es-correo,Derecho\n",
			[]string{`"row":3,"column":"email"`}},
		"repeated email": {"g.csv", spanishHeader + "ana@utpl.edu.ec,Derecho\nANA@utpl.edu.ec,Derecho\n", []string{`"row":3,"column":"correo"`}},
		"missing column": {"g.csv", "email,name,degree,department,faculty\nana@utpl.edu.ec,Ana,Derecho,,\n",
			[]string{`"row":0,"column":"modalidad","message":"Falta la columna «modalidad»."`}},
		"only email and degree": {"g.csv", "email,degree\nana@utpl.edu.ec,Derecho\n",
			[]string{`Falta la columna «nombre».`, `Falta la columna «departamento».`, `Falta la columna «facultad».`, `Falta la columna «modalidad».`}},
		"unknown degree": {"g.csv", spanishHeader + "ana@utpl.edu.ec,Medicina\n", []string{`"row":2,"column":"carrera","message":"La carrera «Medicina» no existe."`}},
		"mixed degrees":  {"g.csv", spanishHeader + "a@utpl.edu.ec,Derecho\nb@utpl.edu.ec,Medicina\n", []string{`"row":3`}},
		"file and degree problems in one answer": {"g.csv", spanishHeader + "no-es-correo,Derecho\nb@utpl.edu.ec,Medicina\n",
			[]string{`"row":2,"column":"correo"`, `"row":3,"column":"carrera","message":"La carrera «Medicina» no existe."`}},
		"not a roster":    {"g.pdf", "%PDF-1.4", []string{`.csv`}},
		"unreadable xlsx": {"g.xlsx", "esto no es un excel", []string{`Excel`}},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			res := e.do(otherTutor, http.MethodPost, "/api/admin/group", multipartFile(t, "file", tc.file, []byte(tc.content)))
			if res.Code != http.StatusBadRequest {
				t.Fatalf("= %d %s; want 400", res.Code, res.Body)
			}
			for _, want := range tc.want {
				if !strings.Contains(res.Body.String(), want) {
					t.Fatalf("= %s; want it to contain %s", res.Body, want)
				}
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
	t.Parallel()
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
	t.Parallel()
	e := newEnv(t)
	var b strings.Builder
	b.WriteString(spanishHeader)
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
	t.Parallel()
	e := newEnv(t)
	const n = 6
	var wg sync.WaitGroup
	codes := make([]int, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := fmt.Sprintf(spanishHeader+"s%d@utpl.edu.ec,Derecho\n", i)
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
	history := decode[[]json.RawMessage](t, e.do(otherTutor, http.MethodGet, "/api/admin/groups", nil))
	if len(history) != 1 {
		t.Fatalf("tutor has %d groups", len(history))
	}
}

func TestAddStudents(t *testing.T) {
	t.Parallel()
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
	// All already present: "Los estudiantes ya están en el grupo".
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
	members := decode[membersResp](t, e.do(tutor, http.MethodGet, "/api/admin/group/students", nil))
	if len(members.Students) != 2 || members.InfoUnavailable {
		t.Fatalf("members = %+v", members)
	}
	for _, m := range members.Students {
		// con.grupo signed in (the test template logs every role in).
		wantSignedIn := m.Email == "con.grupo@utpl.edu.ec"
		if m.SignedIn == nil || *m.SignedIn != wantSignedIn || (m.LastSignInAt != nil) != wantSignedIn || m.Name == nil {
			t.Errorf("%s: signedIn %v, lastSignInAt %v, name %v", m.Email, m.SignedIn, m.LastSignInAt, m.Name)
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
	t.Parallel()
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
	t.Parallel()
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

type membersResp struct {
	Students []struct {
		Email        string     `json:"email"`
		Name         *string    `json:"name"`
		SignedIn     *bool      `json:"signedIn"`
		LastSignInAt *time.Time `json:"lastSignInAt"`
		Attempts     int        `json:"attempts"`
	} `json:"students"`
	InfoUnavailable bool `json:"infoUnavailable"`
}

func TestSignedInMeansASignInNotAProfile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// A profile made ahead of time (as the terminal does) that was never used.
	ctx := context.Background()
	if err := e.store.CreateUser(ctx, domain.User{ID: "pending", Mail: "pendiente@utpl.edu.ec", DisplayName: "Pía Pendiente", Role: domain.RoleStudent, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if res := e.do(tutor, http.MethodPost, "/api/admin/group/students", map[string]any{"emails": []string{"pendiente@utpl.edu.ec"}}); res.Code != 200 {
		t.Fatalf("add = %d %s", res.Code, res.Body)
	}
	find := func() (name string, signedIn bool, at *time.Time) {
		t.Helper()
		for _, m := range decode[membersResp](t, e.do(tutor, http.MethodGet, "/api/admin/group/students", nil)).Students {
			if m.Email == "pendiente@utpl.edu.ec" {
				return *m.Name, *m.SignedIn, m.LastSignInAt
			}
		}
		t.Fatal("student not listed")
		return
	}
	if name, signedIn, at := find(); name != "Pía Pendiente" || signedIn || at != nil {
		t.Fatalf("before signing in: %q %v %v", name, signedIn, at)
	}
	if err := e.store.SetPasswordHash(ctx, "pending", mustHash(t)); err != nil {
		t.Fatal(err)
	}
	before := time.Now().Add(-time.Second)
	if res := e.do(guest, http.MethodPost, "/api/auth/login", map[string]string{"email": "pendiente@utpl.edu.ec", "password": testPassword}); res.Code != 200 {
		t.Fatalf("login = %d %s", res.Code, res.Body)
	}
	if _, signedIn, at := find(); !signedIn || at == nil || at.Before(before) {
		t.Fatalf("after signing in: %v %v", signedIn, at)
	}
}

// mustHash returns testPassword's hash, taken from a template user (hashing
// again would cost an argon2 run).
func mustHash(t *testing.T) string {
	t.Helper()
	e := newEnv(t)
	h, err := e.store.PasswordHash(context.Background(), e.users[tutor].ID)
	if err != nil || h == "" {
		t.Fatalf("hash = %q, %v", h, err)
	}
	return h
}

// unreadableProfiles is a store whose "mail in [...]" lookup fails.
type unreadableProfiles struct{ store.Store }

func (unreadableProfiles) ListUsersByMail(context.Context, []string) ([]domain.User, error) {
	return nil, errors.New("users lookup failed")
}

// useStore rebuilds e's API, as newEnv does, on wrap(e.store).
func useStore(t *testing.T, e *env, wrap func(store.Store) store.Store) {
	t.Helper()
	e.wire(t, wrap(e.store), filepath.Join(t.TempDir(), "media"))
}

func TestStudentListFallsBackToEmailsWhenProfilesCannotBeRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	useStore(t, e, func(s store.Store) store.Store { return unreadableProfiles{s} })
	for _, path := range []string{"/api/admin/group/students", "/api/admin/groups/" + e.group.ID} {
		res := e.do(tutor, http.MethodGet, path, nil)
		if res.Code != 200 {
			t.Fatalf("%s = %d %s", path, res.Code, res.Body)
		}
		m := decode[membersResp](t, res)
		if !m.InfoUnavailable || len(m.Students) != 1 {
			t.Fatalf("%s = %s", path, res.Body)
		}
		// The email alone: the name and whether they signed in are unknown
		// (null), not "no name" or "never signed in".
		st := m.Students[0]
		if st.Email != "con.grupo@utpl.edu.ec" || st.Name != nil || st.SignedIn != nil || st.LastSignInAt != nil {
			t.Fatalf("%s: student = %s", path, res.Body)
		}
		if !strings.Contains(res.Body.String(), `"name":null`) || !strings.Contains(res.Body.String(), `"signedIn":null`) {
			t.Fatalf("%s: unknown values are not null: %s", path, res.Body)
		}
	}
}

func TestAddStudentsWithoutActiveGroup(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for name, body := range map[string]any{
		"/api/admin/group/students":      map[string]any{"emails": []string{"nuevo@utpl.edu.ec"}},
		"/api/admin/group/students/file": multipartFile(t, "file", "mas.csv", []byte(rosterCSV)),
	} {
		res := e.do(otherTutor, http.MethodPost, name, body)
		if ae := decode[apiError](t, res); res.Code != http.StatusNotFound || ae.Error.Message != "No hay grupo activo" || ae.Error.Code != "no_active_group" {
			t.Fatalf("%s = %d %s", name, res.Code, res.Body)
		}
		assertNoGroup(t, e, otherTutor)
	}
}

func TestBadRosterAddsNoStudents(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ content, want string }{
		"invalid email":    {spanishHeader + "nueva@utpl.edu.ec,Derecho\nno-es-correo,Derecho\n", `"row":3,"column":"correo"`},
		"missing column":   {"correo,carrera\nnueva@utpl.edu.ec,Derecho\n", `Falta la columna «nombre».`},
		"unknown degree":   {spanishHeader + "nueva@utpl.edu.ec,Medicina\n", `"row":2,"column":"carrera","message":"La carrera «Medicina» no existe."`},
		"unreadable file":  {"\"sin cerrar", `No se pudo leer`},
		"repeated address": {spanishHeader + "nueva@utpl.edu.ec,Derecho\nNUEVA@utpl.edu.ec,Derecho\n", `"row":3,"column":"correo"`},
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			res := e.do(tutor, http.MethodPost, "/api/admin/group/students/file", multipartFile(t, "file", "mas.csv", []byte(tc.content)))
			if ae := decode[apiError](t, res); res.Code != 400 || ae.Error.Code != "invalid_roster" || !strings.Contains(res.Body.String(), tc.want) {
				t.Fatalf("= %d %s; want 400 containing %s", res.Code, res.Body, tc.want)
			}
			if g := decode[groupResp](t, e.do(tutor, http.MethodGet, "/api/admin/group", nil)); len(g.Group.Estudiantes) != 1 {
				t.Fatalf("students were added: %+v", g.Group.Estudiantes)
			}
		})
	}
}
