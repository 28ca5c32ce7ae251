package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/httpapi"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

// BenchmarkGroupReport1000 and BenchmarkGroupReport5000 time the tutor's
// report, GET /api/admin/reports, end to end on SQLite (session, group,
// attempts, names, JSON, gzip) for a group of 1,000 and 5,000 students,
// each with a graded or self-assessed mock exam, a training attempt in
// progress, and one in ten who never practised. The tutor polls it while
// the group rehearses, so it is timed as polled: the first request, after
// a start, is the "cold" sub-benchmark. Budgets: under 50 ms at 1,000 and
// under 200 ms at 5,000 (scripts/bench-budgets.sh).
func BenchmarkGroupReport1000(b *testing.B) { benchmarkGroupReport(b, 1000) }
func BenchmarkGroupReport5000(b *testing.B) { benchmarkGroupReport(b, 5000) }

func benchmarkGroupReport(b *testing.B, students int) {
	ctx := context.Background()
	st := sqlitetest.Open(b)
	cfg, err := config.Load(func(string) (string, bool) { return "", false })
	if err != nil {
		b.Fatal(err)
	}
	sessions := auth.NewSessions(st, cfg.SessionIdle, cfg.SessionMax)
	cat := catalog.NewService(st, false)
	if _, err := cat.ImportDemoBank(ctx); err != nil {
		b.Fatal(err)
	}
	gs := groups.NewService(st)
	tutorUser := domain.User{ID: domain.NewID(), Mail: "tutor.reporte@utpl.edu.ec", DisplayName: "Tutor", Role: domain.RoleTutor, CreatedAt: time.Now().UTC()}
	if err := st.CreateUser(ctx, tutorUser); err != nil {
		b.Fatal(err)
	}
	token, err := sessions.Create(ctx, tutorUser.ID, "bench", "127.0.0.1")
	if err != nil {
		b.Fatal(err)
	}
	seedReportGroup(b, st, tutorUser, students)
	handler := func() http.Handler {
		return httpapi.New(httpapi.Deps{Config: cfg, Store: st, Auth: auth.NewService(st, sessions, nil), Groups: gs, Catalog: cat,
			Exams: exams.NewService(st, cat, gs, nil), Feedback: feedback.NewService(st), Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}
	get := func(h http.Handler) {
		req := httptest.NewRequest(http.MethodGet, "/api/admin/reports", nil)
		req.Header.Set("Cookie", sessionCookieName+"="+token)
		req.Header.Set("Accept-Encoding", "gzip")
		res := httptest.NewRecorder()
		h.ServeHTTP(res, req)
		if res.Code != http.StatusOK {
			b.Fatalf("report = %d %s", res.Code, res.Body)
		}
	}
	b.Run("polled", func(b *testing.B) {
		h := handler()
		get(h)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			get(h)
		}
	})
	b.Run("cold", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			h := handler() // a fresh server: nothing in memory
			b.StartTimer()
			get(h)
		}
	})
}

// seedReportGroup gives the tutor an active group of n students with their
// attempts, written straight to the store.
func seedReportGroup(b *testing.B, st store.Store, tutorUser domain.User, n int) {
	ctx := context.Background()
	cases, err := st.ListCases(ctx, store.CaseFilter{DegreeID: "derecho"})
	if err != nil || len(cases) == 0 {
		b.Fatalf("cases: %v", err)
	}
	bp, rubric := domain.DefaultBlueprint("derecho"), domain.DefaultRubric("derecho")
	now := time.Now().UTC()
	g := domain.Group{ID: domain.NewID(), Carrera: "derecho", DocenteEmail: tutorUser.Mail, Status: domain.GroupActive, CreatedAt: now.Add(-30 * 24 * time.Hour)}
	for i := range n {
		g.Estudiantes = append(g.Estudiantes, domain.GroupStudent{Email: fmt.Sprintf("est%05d.reporte@utpl.edu.ec", i), Name: fmt.Sprintf("Estudiante %d", i), AddedAt: g.CreatedAt})
	}
	if err := st.CreateGroup(ctx, g); err != nil {
		b.Fatal(err)
	}
	err = st.InTx(ctx, func(tx store.Store) error {
		for i, s := range g.Estudiantes {
			if i%10 == 9 {
				continue // never practised: listed as inactive
			}
			u := domain.User{ID: fmt.Sprintf("stu%05d", i), Mail: s.Email, DisplayName: s.Name, Role: domain.RoleStudent, CreatedAt: g.CreatedAt}
			if err := tx.CreateUser(ctx, u); err != nil {
				return err
			}
			started := now.Add(-time.Duration(i%20) * 24 * time.Hour)
			mock := domain.NewAttempt(domain.NewID(), u, cases[i%len(cases)], bp, rubric, domain.ModeMock, started)
			mock.GroupID, mock.TutorEmail = g.ID, tutorUser.Mail
			levels := domain.Levels{}
			for j, c := range rubric.Criteria {
				levels[c.ID] = 1 + (i+j)%4
			}
			finished := started.Add(time.Hour)
			mock.Status, mock.FinishedAt = domain.AttemptFinished, &finished
			mock.Self = &domain.SelfAssessment{Levels: levels, Score: rubric.Score(levels), At: finished}
			if i%2 == 0 {
				mock.Grade = &domain.TutorGrade{Levels: levels, Score: rubric.Score(levels), By: tutorUser.Mail, At: finished}
			}
			if err := tx.CreateAttempt(ctx, mock); err != nil {
				return err
			}
			training := domain.NewAttempt(domain.NewID(), u, cases[(i+1)%len(cases)], bp, rubric, domain.ModeTraining, started.Add(2*time.Hour))
			training.GroupID, training.TutorEmail = g.ID, tutorUser.Mail
			if err := tx.CreateAttempt(ctx, training); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}
