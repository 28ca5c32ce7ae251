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
)

var otherTutor = domain.User{ID: "t2", Mail: "otro.docente@utpl.edu.ec", Role: domain.RoleTutor}

// inOtherGroupProblems returns the problems of a refusal of students in
// another tutor's active group, failing on any other error.
func inOtherGroupProblems(t *testing.T, err error, message string) []roster.Problem {
	t.Helper()
	var ue *domain.UserError
	if !errors.As(err, &ue) || ue.Code != CodeInOtherGroup || !errors.Is(err, domain.ErrConflict) || ue.Message != message {
		t.Fatalf("err = %v; want %s with %q", err, CodeInOtherGroup, message)
	}
	ps, ok := ue.Details.([]roster.Problem)
	if !ok {
		t.Fatalf("details = %#v", ue.Details)
	}
	return ps
}

func TestStudentsOfAnotherTutorsGroupAreRefused(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := NewService(st)
	if _, err := s.LoadGroup(ctx, tutor, strings.NewReader(header+"ana@utpl.edu.ec;Ana;Derecho;;;\nbeto@utpl.edu.ec;Beto;Derecho;;;\n"), "g.csv"); err != nil {
		t.Fatal(err)
	}

	// Loading: the rows are named, nothing is stored.
	_, err := s.LoadGroup(ctx, otherTutor, strings.NewReader(header+"carla@utpl.edu.ec;Carla;Derecho;;;\nANA@utpl.edu.ec;Ana;Derecho;;;\n"), "g2.csv")
	got := inOtherGroupProblems(t, err, msgInOtherGroupLoad)
	want := []roster.Problem{{Row: 3, Message: "El estudiante «ana@utpl.edu.ec» ya pertenece al grupo activo de otro docente."}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("problems = %+v, want %+v", got, want)
	}
	if _, err := st.ActiveGroupByTutor(ctx, otherTutor.Mail); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("the refused load created a group: %v", err)
	}
	if _, err := s.LoadGroup(ctx, otherTutor, strings.NewReader(header+"carla@utpl.edu.ec;Carla;Derecho;;;\n"), "g2.csv"); err != nil {
		t.Fatal(err)
	}

	// Adding by email: the emails are named, no row, nothing is added.
	_, err = s.AddStudents(ctx, otherTutor, AddInput{Emails: []string{"dora@utpl.edu.ec", "Beto@utpl.edu.ec", "ana@utpl.edu.ec"}})
	got = inOtherGroupProblems(t, err, msgInOtherGroupAdd)
	want = []roster.Problem{
		{Message: "El estudiante «beto@utpl.edu.ec» ya pertenece al grupo activo de otro docente."},
		{Message: "El estudiante «ana@utpl.edu.ec» ya pertenece al grupo activo de otro docente."},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("problems = %+v, want %+v", got, want)
	}
	if g, _ := st.ActiveGroupByTutor(ctx, otherTutor.Mail); len(g.Estudiantes) != 1 {
		t.Fatalf("students were added: %+v", g.Estudiantes)
	}
	// Adding from a file names the rows.
	_, err = s.AddStudents(ctx, otherTutor, AddInput{File: strings.NewReader(header + "dora@utpl.edu.ec;Dora;Derecho;;;\n\nbeto@utpl.edu.ec;B;Derecho;;;\n"), Filename: "mas.csv"})
	got = inOtherGroupProblems(t, err, msgInOtherGroupAdd)
	if len(got) != 1 || got[0].Row != 4 {
		t.Fatalf("problems = %+v, want beto at row 4", got)
	}

	// Once the first tutor removes a student, the other may add them.
	if _, err := s.RemoveStudent(ctx, tutor, "BETO@utpl.edu.ec"); err != nil {
		t.Fatal(err)
	}
	if res, err := s.AddStudents(ctx, otherTutor, AddInput{Emails: []string{"beto@utpl.edu.ec"}}); err != nil || res.Added != 1 {
		t.Fatalf("add after removal = %+v, %v", res, err)
	}
	if g, err := s.ActiveGroupOf(ctx, "beto@utpl.edu.ec"); err != nil || g.DocenteEmail != otherTutor.Mail {
		t.Fatalf("ActiveGroupOf(beto) = %+v, %v", g, err)
	}
}

func TestManyRefusedStudentsAreCappedLikeRosterProblems(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := NewService(st)
	var emails []string
	for i := range roster.MaxProblems + 5 {
		emails = append(emails, fmt.Sprintf("e%02d@utpl.edu.ec", i))
	}
	rows := header
	for _, e := range emails {
		rows += e + ";E;Derecho;;;\n"
	}
	if _, err := s.LoadGroup(ctx, tutor, strings.NewReader(rows), "g.csv"); err != nil {
		t.Fatal(err)
	}
	_, err := s.LoadGroup(ctx, otherTutor, strings.NewReader(rows), "g.csv")
	got := inOtherGroupProblems(t, err, msgInOtherGroupLoad)
	if len(got) != roster.MaxProblems+1 || got[roster.MaxProblems].Message != "Y 5 estudiante(s) más en la misma situación." {
		t.Fatalf("problems = %d, last %+v", len(got), got[len(got)-1])
	}
}

func TestRemoveStudent(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := NewService(st)
	if _, err := s.RemoveStudent(ctx, tutor, "ana@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("without an active group: %v", err)
	}
	if _, err := s.LoadGroup(ctx, tutor, strings.NewReader(header+"ana@utpl.edu.ec;Ana;Derecho;;;\nbeto@utpl.edu.ec;Beto;Derecho;;;\n"), "g.csv"); err != nil {
		t.Fatal(err)
	}
	ana := domain.User{ID: "a", Mail: "ana@utpl.edu.ec", Role: domain.RoleStudent}
	g, err := s.RemoveStudent(ctx, tutor, " Ana@UTPL.edu.ec ")
	if err != nil || g.HasStudent("ana@utpl.edu.ec") || !g.HasStudent("beto@utpl.edu.ec") {
		t.Fatalf("RemoveStudent = %+v, %v", g.Estudiantes, err)
	}
	if ok, _ := s.CanEnterTest(ctx, ana); ok {
		t.Fatal("a removed student may still enter /test")
	}
	var ue *domain.UserError
	if _, err := s.RemoveStudent(ctx, tutor, "ana@utpl.edu.ec"); !errors.As(err, &ue) || ue.Code != CodeStudentNotInGroup {
		t.Fatalf("removing twice: %v", err)
	}
	if _, err := s.RemoveStudent(ctx, otherTutor, "beto@utpl.edu.ec"); !errors.As(err, &ue) || ue.Code != CodeNoActiveGroup {
		t.Fatalf("another tutor without a group: %v", err)
	}
}

func TestGroupSizeIsCapped(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := NewService(st)
	var emails []string
	for i := range MaxGroupStudents {
		emails = append(emails, fmt.Sprintf("e%04d@utpl.edu.ec", i))
	}
	if _, err := s.LoadGroup(ctx, tutor, strings.NewReader(header+"a@utpl.edu.ec;A;Derecho;;;\n"), "g.csv"); err != nil {
		t.Fatal(err)
	}
	_, err := s.AddStudents(ctx, tutor, AddInput{Emails: emails})
	var ue *domain.UserError
	if !errors.As(err, &ue) || ue.Code != CodeGroupFull || !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("err = %v; want %s", err, CodeGroupFull)
	}
	if res, err := s.AddStudents(ctx, tutor, AddInput{Emails: emails[1:]}); err != nil || res.Added != MaxGroupStudents-1 {
		t.Fatalf("filling the group exactly = %+v, %v", res.Added, err)
	}
}

func TestGroupsPerDayAreCapped(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := NewService(st)
	now := time.Now()
	s.now = func() time.Time { return now }
	for i := range MaxGroupsPerDay {
		if _, err := s.LoadGroup(ctx, tutor, strings.NewReader(header+fmt.Sprintf("e%d@utpl.edu.ec;E;Derecho;;;\n", i)), "g.csv"); err != nil {
			t.Fatal(err)
		}
		now = now.Add(time.Minute)
		if _, err := s.Finalize(ctx, tutor); err != nil {
			t.Fatal(err)
		}
	}
	_, err := s.LoadGroup(ctx, tutor, strings.NewReader(header+"otro@utpl.edu.ec;E;Derecho;;;\n"), "g.csv")
	var ue *domain.UserError
	if !errors.As(err, &ue) || ue.Code != "too_many_groups" || !errors.Is(err, domain.ErrTooManyRequests) {
		t.Fatalf("the 21st group in a day: %v", err)
	}
	now = now.Add(24 * time.Hour)
	if _, err := s.LoadGroup(ctx, tutor, strings.NewReader(header+"otro@utpl.edu.ec;E;Derecho;;;\n"), "g.csv"); err != nil {
		t.Fatalf("a day later: %v", err)
	}
}
