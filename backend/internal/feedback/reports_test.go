package feedback_test

import (
	"context"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

// The report keeps what finished attempts add in memory; a grade saved by
// another instance (another service on the same store), a finished
// attempt and a roster change all show in the next report.
func TestReportFollowsChangesMadeElsewhere(t *testing.T) {
	ctx := context.Background()
	st := sqlitetest.Open(t)
	if _, err := catalog.NewService(st, false).ImportDemoBank(ctx); err != nil {
		t.Fatal(err)
	}
	cases, err := st.ListCases(ctx, store.CaseFilter{DegreeID: "derecho"})
	if err != nil || len(cases) == 0 {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	g := domain.Group{ID: "g", Carrera: "derecho", DocenteEmail: "tutor@utpl.edu.ec", Status: domain.GroupActive, CreatedAt: now,
		Estudiantes: []domain.GroupStudent{{Email: "ana@utpl.edu.ec", Name: "Ana", AddedAt: now}}}
	if err := st.CreateGroup(ctx, g); err != nil {
		t.Fatal(err)
	}
	ana := domain.User{ID: "ana", Mail: "ana@utpl.edu.ec", DisplayName: "Ana", Role: domain.RoleStudent, CreatedAt: now}
	if err := st.CreateUser(ctx, ana); err != nil {
		t.Fatal(err)
	}
	rubric := domain.DefaultRubric("derecho")
	a := domain.NewAttempt("a1", ana, cases[0], domain.DefaultBlueprint("derecho"), rubric, domain.ModeMock, now)
	a.GroupID, a.TutorEmail = g.ID, g.DocenteEmail
	if err := st.CreateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	levels := func(l int) domain.Levels {
		out := domain.Levels{}
		for _, c := range rubric.Criteria {
			out[c.ID] = l
		}
		return out
	}
	here := feedback.NewService(st)
	report := func() feedback.GroupReport {
		t.Helper()
		g, err := st.GetGroup(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		r, err := here.Report(ctx, g, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := report(); r.Attempts != 1 || r.Finished != 0 || r.PassRate != nil {
		t.Fatalf("in progress: %+v", r)
	}
	// The student finishes (self-assessment 2 everywhere: 5.0, a fail).
	a, _ = st.GetAttempt(ctx, a.ID)
	finished := now.Add(time.Hour)
	a.Status, a.FinishedAt = domain.AttemptFinished, &finished
	a.Self = &domain.SelfAssessment{Levels: levels(2), Score: rubric.Score(levels(2)), At: finished}
	if err := st.UpdateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	if r := report(); r.Finished != 1 || r.Graded != 0 || *r.PassRate != 0 || r.ByCriterion[0].AverageLevel != 2 {
		t.Fatalf("self-assessed: %+v", r)
	}
	// Another instance saves the tutor's grade (4 everywhere: 10.0, a pass).
	a, _ = st.GetAttempt(ctx, a.ID)
	a.Grade = &domain.TutorGrade{Levels: levels(4), Score: rubric.Score(levels(4)), By: g.DocenteEmail, At: finished}
	if err := st.UpdateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	if r := report(); r.Graded != 1 || *r.PassRate != 1 || r.ByCriterion[0].AverageLevel != 4 || *r.Average != 10 {
		t.Fatalf("graded elsewhere: %+v", r)
	}
	// A student added to the roster, who never practised, is inactive.
	if _, err := st.AddGroupStudents(ctx, g.ID, []domain.GroupStudent{{Email: "beto@utpl.edu.ec", Name: "Beto", AddedAt: now}}); err != nil {
		t.Fatal(err)
	}
	if r := report(); r.Students != 2 || len(r.Inactive) != 1 || r.Inactive[0].Email != "beto@utpl.edu.ec" || r.Inactive[0].Name != "Beto" {
		t.Fatalf("roster change: %+v", r)
	}
}
