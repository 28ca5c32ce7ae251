package feedback_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
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

// slowAttempts is a store whose attempt reads wait for the test's go.
type slowAttempts struct {
	store.Store
	release chan struct{}
	started chan struct{}
	reads   atomic.Int64
}

func (s *slowAttempts) GetAttempt(ctx context.Context, id string) (domain.Attempt, error) {
	select {
	case s.started <- struct{}{}:
	default:
	}
	<-s.release
	s.reads.Add(1)
	return s.Store.GetAttempt(ctx, id)
}

// TestReportKeepsWhatItReadWhenCancelled: a report whose request is
// cancelled (Hosting's 60 s cut on a fresh instance) goes on reading, and
// keeps each finished attempt as it is read, so the retry reads none again.
// Attempts older than the report's window are not listed at all.
func TestReportKeepsWhatItReadWhenCancelled(t *testing.T) {
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
	g := domain.Group{ID: "g", Carrera: "derecho", DocenteEmail: "tutor@utpl.edu.ec", Status: domain.GroupActive, CreatedAt: now}
	if err := st.CreateGroup(ctx, g); err != nil {
		t.Fatal(err)
	}
	rubric := domain.DefaultRubric("derecho")
	for i, age := range []time.Duration{time.Hour, 2 * time.Hour, 3 * time.Hour, feedback.ReportWindow + time.Hour} {
		u := domain.User{ID: fmt.Sprintf("u%d", i), Mail: fmt.Sprintf("e%d@utpl.edu.ec", i), DisplayName: "E", Role: domain.RoleStudent, CreatedAt: now}
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
		a := domain.NewAttempt(fmt.Sprintf("a%d", i), u, cases[0], domain.DefaultBlueprint("derecho"), rubric, domain.ModeMock, now.Add(-age))
		a.GroupID, a.TutorEmail = g.ID, g.DocenteEmail
		if err := st.CreateAttempt(ctx, a); err != nil {
			t.Fatal(err)
		}
		a, _ = st.GetAttempt(ctx, a.ID)
		finished := a.CreatedAt.Add(time.Minute)
		levels := domain.Levels{}
		for _, c := range rubric.Criteria {
			levels[c.ID] = 3
		}
		a.Status, a.FinishedAt = domain.AttemptFinished, &finished
		a.Self = &domain.SelfAssessment{Levels: levels, Score: rubric.Score(levels), At: finished}
		if err := st.UpdateAttempt(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	slow := &slowAttempts{Store: st, release: make(chan struct{}), started: make(chan struct{}, 1)}
	svc := feedback.NewService(slow)

	reqCtx, cancel := context.WithCancel(ctx)
	errc := make(chan error, 1)
	go func() {
		_, err := svc.Report(reqCtx, g, nil)
		errc <- err
	}()
	<-slow.started
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled report: %v", err)
	}
	close(slow.release)
	deadline := time.Now().Add(30 * time.Second)
	for feedback.KnownContributions(svc) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the cancelled report's reading kept %d of 3 (%d reads)", feedback.KnownContributions(svc), slow.reads.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
	r, err := svc.Report(ctx, g, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Attempts != 3 || r.Finished != 3 {
		t.Fatalf("report = %+v, want the 3 attempts inside the window", r)
	}
	if n := slow.reads.Load(); n != 3 {
		t.Fatalf("the retry read attempts again: %d reads", n)
	}
}

// The report's section by area counts an area's finished attempts and
// lists the key points its transcripts leave out; a transcript that
// arrives after a report shows in the next one, in the CSV too.
func TestReportByArea(t *testing.T) {
	ctx := context.Background()
	tk := newTake(t)
	a, err := tk.store.GetAttempt(ctx, tk.attempt.ID)
	if err != nil {
		t.Fatal(err)
	}
	a.Case.KeyPoints = []string{"presunción de inocencia", "legítima defensa"}
	finished := time.Now().UTC()
	a.Status, a.FinishedAt = domain.AttemptFinished, &finished
	levels := domain.Levels{}
	for _, c := range a.Rubric.Criteria {
		levels[c.ID] = 4
	}
	a.Self = &domain.SelfAssessment{Levels: levels, Score: a.Rubric.Score(levels), At: finished}
	if err := tk.store.UpdateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	g, err := tk.store.GetGroup(ctx, "g")
	if err != nil {
		t.Fatal(err)
	}
	byArea := func() []feedback.AreaReport {
		t.Helper()
		r, err := tk.feedback.Report(ctx, g, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r.ByArea
	}
	got := byArea()
	if len(got) != 1 || got[0].Area != a.Case.Area || got[0].Finished != 1 || *got[0].Average != 10 || *got[0].PassRate != 1 ||
		got[0].Heard != 0 || len(got[0].Missed) != 0 {
		t.Fatalf("before any transcript: %+v", got)
	}

	said := []domain.Segment{{StartMs: 0, EndMs: 4000, Text: "Mi defendido goza de la presunción de inocencia."}}
	if ok, err := tk.feedback.SaveServerTranscript(ctx, a.ID, tk.recID, "es", said); err != nil || !ok {
		t.Fatal(ok, err)
	}
	got = byArea()
	want := []feedback.MissedKeyPoint{{Case: a.Case.Title, Text: "legítima defensa", Missed: 1, Heard: 1}}
	if got[0].Heard != 1 || fmt.Sprint(got[0].Missed) != fmt.Sprint(want) {
		t.Fatalf("after the transcript: heard %d, missed %+v; want %+v", got[0].Heard, got[0].Missed, want)
	}

	var csv strings.Builder
	if err := tk.feedback.WriteAreasCSV(ctx, &csv, g); err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{
		a.Case.Area + ";1;10,00;100,00;1;;;",
		a.Case.Area + ";;;;;legítima defensa;" + a.Case.Title + ";1 de 1",
	} {
		if !strings.Contains(csv.String(), line+"\n") {
			t.Errorf("the CSV has no line %q:\n%s", line, csv.String())
		}
	}
}
