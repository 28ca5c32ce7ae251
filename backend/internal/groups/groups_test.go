package groups

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/roster"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

// failingLookup is a store whose "mail in [...]" lookup fails.
type failingLookup struct{ store.Store }

func (failingLookup) ListUsersByMail(context.Context, []string) ([]domain.User, error) {
	return nil, errors.New("lookup failed")
}

func openStore(t *testing.T) store.Store {
	t.Helper()
	st := sqlitetest.Open(t)
	return st
}

const header = "correo;nombre;carrera;departamento;facultad;modalidad\n"

var tutor = domain.User{ID: "t", Mail: "tutor@utpl.edu.ec", Role: domain.RoleTutor}

// problems returns the roster problems of a service error, failing otherwise.
func problems(t *testing.T, err error) []roster.Problem {
	t.Helper()
	var ue *domain.UserError
	if !errors.As(err, &ue) || ue.Code != CodeInvalidRoster {
		t.Fatalf("err = %v; want an invalid roster", err)
	}
	ps, ok := ue.Details.([]roster.Problem)
	if !ok {
		t.Fatalf("details = %#v", ue.Details)
	}
	return ps
}

func TestMembersFallBackToEmailsWhenLookupFails(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	for _, u := range []domain.User{
		{ID: "u", Mail: "a@utpl.edu.ec", DisplayName: "Ana", Role: domain.RoleStudent, CreatedAt: time.Now()},
		{ID: "v", Mail: "c@utpl.edu.ec", DisplayName: "Carla", Role: domain.RoleStudent, CreatedAt: time.Now()},
	} {
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	// Ana has signed in; Carla's profile was made from the terminal and
	// never used.
	at := time.Now().UTC().Truncate(time.Millisecond)
	if err := st.CreateSession(ctx, domain.Session{TokenHash: "h", UserID: "u", CreatedAt: at, LastSeenAt: at, ExpiresAt: at.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	g := domain.Group{Estudiantes: []domain.GroupStudent{{Email: "a@utpl.edu.ec"}, {Email: "b@utpl.edu.ec"}, {Email: "c@utpl.edu.ec"}}}

	members, unavailable := NewService(st).Members(ctx, g)
	if unavailable || !members[0].SignedIn() || members[0].User.DisplayName != "Ana" || !members[0].User.LastLoginAt.Equal(at) {
		t.Fatalf("members = %+v, unavailable %v", members, unavailable)
	}
	if members[1].User != nil || members[1].SignedIn() {
		t.Fatalf("b has no profile: %+v", members[1])
	}
	if members[2].User == nil || members[2].SignedIn() {
		t.Fatalf("c has a profile but never signed in: %+v", members[2])
	}

	members, unavailable = NewService(failingLookup{st}).Members(ctx, g)
	if !unavailable || len(members) != 3 || members[0].Email != "a@utpl.edu.ec" || members[0].User != nil {
		t.Fatalf("fallback members = %+v, unavailable %v", members, unavailable)
	}
}

func TestAccessFollowsActiveGroupMembership(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := NewService(st)
	student := domain.User{ID: "s", Mail: "Ana@UTPL.edu.ec", Role: domain.RoleStudent}
	if ok, err := s.CanEnterTest(ctx, student); err != nil || ok {
		t.Fatalf("before any group: %v, %v", ok, err)
	}
	if ok, _ := s.CanEnterTest(ctx, tutor); !ok {
		t.Fatal("a tutor may always enter /test")
	}
	res, err := s.LoadGroup(ctx, tutor, strings.NewReader(header+"ana@utpl.edu.ec;Ana;Derecho;;;\n"), "g.csv")
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.CanEnterTest(ctx, student); err != nil || !ok {
		t.Fatalf("member: %v, %v", ok, err)
	}
	g, err := s.ActiveGroupOf(ctx, student.Mail)
	if err != nil || g.ID != res.Group.ID || g.Carrera != "derecho" || g.DocenteEmail != tutor.Mail {
		t.Fatalf("ActiveGroupOf = %+v, %v", g, err)
	}
	if _, err := s.Finalize(ctx, tutor); err != nil {
		t.Fatal(err)
	}
	if ok, _ := s.CanEnterTest(ctx, student); ok {
		t.Fatal("access survived finalize")
	}
	if _, err := s.ActiveGroupOf(ctx, student.Mail); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("ActiveGroupOf after finalize: %v", err)
	}
}

func TestLoadReportsFileAndDegreeProblemsTogether(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := NewService(st)
	in := header +
		"ana@utpl.edu.ec;Ana;Medicina;;;\n" +
		"no-es-correo;Luis;Derecho;;;\n" +
		"beto@utpl.edu.ec;Beto;;;;\n" +
		"carla@utpl.edu.ec;Carla;Arquitectura;;;\n"
	_, err := s.LoadGroup(ctx, tutor, strings.NewReader(in), "g.csv")
	got := problems(t, err)
	want := []roster.Problem{
		{Row: 2, Column: "carrera", Message: "La carrera «Medicina» no existe."},
		{Row: 3, Column: "correo", Message: "El correo «no-es-correo» no es válido."},
		{Row: 4, Column: "carrera", Message: "La carrera está vacía."},
		{Row: 5, Column: "carrera", Message: "La carrera «Arquitectura» no existe."},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("problems = %+v\nwant %+v", got, want)
	}
	if _, err := st.ActiveGroupByTutor(ctx, tutor.Mail); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a group was written: %v", err)
	}
}

func TestDegreeProblemCap(t *testing.T) {
	ctx := context.Background()
	s := NewService(openStore(t))
	unknown := func(n int) string {
		var b strings.Builder
		b.WriteString(header)
		for i := range n {
			fmt.Fprintf(&b, "e%d@utpl.edu.ec;E;Medicina;;;\n", i)
		}
		return b.String()
	}
	// Exactly MaxProblems unknown degrees: all reported, no "more" marker.
	_, err := s.LoadGroup(ctx, tutor, strings.NewReader(unknown(roster.MaxProblems)), "g.csv")
	got := problems(t, err)
	if len(got) != roster.MaxProblems || strings.HasPrefix(got[len(got)-1].Message, "Hay más errores") {
		t.Fatalf("%d problems, last %+v", len(got), got[len(got)-1])
	}
	// One more: MaxProblems and the marker.
	_, err = s.LoadGroup(ctx, tutor, strings.NewReader(unknown(roster.MaxProblems+1)), "g.csv")
	got = problems(t, err)
	if len(got) != roster.MaxProblems+1 || !strings.HasPrefix(got[roster.MaxProblems].Message, "Hay más errores") {
		t.Fatalf("%d problems, last %+v", len(got), got[len(got)-1])
	}
}

func TestLoadRequiresOneDegree(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if err := st.CreateDegree(ctx, domain.Degree{ID: "psico", Nombre: "Psicología"}); err != nil {
		t.Fatal(err)
	}
	_, err := NewService(st).LoadGroup(ctx, tutor, strings.NewReader(header+"a@utpl.edu.ec;A;Derecho;;;\nb@utpl.edu.ec;B;psicologia;;;\n"), "g.csv")
	got := problems(t, err)
	if len(got) != 1 || got[0] != (roster.Problem{Row: 3, Column: "carrera",
		Message: "Todas las filas deben tener la misma carrera: se esperaba «Derecho» y se encontró «psicologia»."}) {
		t.Fatalf("problems = %+v", got)
	}
}

func TestAddStudentsFromAnotherDegreesRoster(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	if err := st.CreateDegree(ctx, domain.Degree{ID: "psico", Nombre: "Psicología"}); err != nil {
		t.Fatal(err)
	}
	s := NewService(st)
	if _, err := s.LoadGroup(ctx, tutor, strings.NewReader(header+"a@utpl.edu.ec;A;Derecho;;;\n"), "g.csv"); err != nil {
		t.Fatal(err)
	}
	in := "Correo;Nombre;Carrera;Departamento;Facultad;Modalidad\n" +
		"b@utpl.edu.ec;B;DERECHO;;;\n" +
		"c@utpl.edu.ec;C;Psicología;;;\n" +
		"d@utpl.edu.ec;D;Medicina;;;\n"
	_, err := s.AddStudents(ctx, tutor, AddInput{File: strings.NewReader(in), Filename: "mas.csv"})
	got := problems(t, err)
	want := []roster.Problem{
		{Row: 3, Column: "Carrera", Message: "La carrera «Psicología» no es la del grupo activo («Derecho»)."},
		{Row: 4, Column: "Carrera", Message: "La carrera «Medicina» no existe."},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("problems = %+v\nwant %+v", got, want)
	}
	if g, _ := st.ActiveGroupByTutor(ctx, tutor.Mail); len(g.Estudiantes) != 1 {
		t.Fatalf("students were added: %+v", g.Estudiantes)
	}
	// The group's own degree, however it is written, is accepted.
	res, err := s.AddStudents(ctx, tutor, AddInput{File: strings.NewReader(header + "b@utpl.edu.ec;B;  derecho ;;;\n"), Filename: "mas.csv"})
	if err != nil || res.Added != 1 {
		t.Fatalf("add = %+v, %v", res, err)
	}
}

// finalizedMeanwhile hands out the tutor's active group, then finalizes it
// before the caller writes: the race between adding and finalizing.
type finalizedMeanwhile struct{ store.Store }

func (f finalizedMeanwhile) ActiveGroupByTutor(ctx context.Context, tutorEmail string) (domain.Group, error) {
	g, err := f.Store.ActiveGroupByTutor(ctx, tutorEmail)
	if err == nil {
		err = f.FinalizeGroup(ctx, g.ID, time.Now())
	}
	return g, err
}

func TestAddToAGroupFinalizedMeanwhile(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	loaded, err := NewService(st).LoadGroup(ctx, tutor, strings.NewReader(header+"a@utpl.edu.ec;A;Derecho;;;\n"), "g.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewService(finalizedMeanwhile{st}).AddStudents(ctx, tutor, AddInput{Emails: []string{"b@utpl.edu.ec"}})
	var ue *domain.UserError
	if !errors.As(err, &ue) || !errors.Is(err, domain.ErrNotFound) || ue.Message != MsgNoActiveGroup {
		t.Fatalf("err = %v; want %q", err, MsgNoActiveGroup)
	}
	if g, _ := st.GetGroup(ctx, loaded.Group.ID); g.Status != domain.GroupFinalized || len(g.Estudiantes) != 1 {
		t.Fatalf("group = %+v", g)
	}
}
