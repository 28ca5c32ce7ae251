package exams_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
	"github.com/utpl/simulador/backend/internal/testsupport/testclock"
)

// The attempt rules on a real SQLite store, with the server's clock in
// the test's hands. The API tests (package httpapi) check the same rules
// through HTTP; these say which rule broke when one does.

const tutorMail = "tutora@utpl.edu.ec"

type fixture struct {
	store   store.Store
	exams   *exams.Service
	clock   *testclock.Clock
	student domain.User
	other   domain.User // a student of the same group
	tutor   domain.User // the group's tutor
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := t.Context()
	st := sqlitetest.Open(t)
	ms, err := media.NewDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.NewService(st, false)
	if _, err := cat.ImportDemoBank(ctx); err != nil {
		t.Fatal(err)
	}
	f := &fixture{store: st, clock: testclock.New(time.Now().UTC().Truncate(time.Second))}
	f.exams = exams.NewService(st, cat, groups.NewService(st), ms)
	f.exams.SetClock(f.clock.Now)
	f.student = f.user(t, "est", "est@utpl.edu.ec", domain.RoleStudent)
	f.other = f.user(t, "otro", "otro@utpl.edu.ec", domain.RoleStudent)
	f.tutor = f.user(t, "tut", tutorMail, domain.RoleTutor)
	now := f.clock.Now()
	if err := st.CreateGroup(ctx, domain.Group{ID: "g", Carrera: "derecho", DocenteEmail: tutorMail, Status: domain.GroupActive,
		CreatedAt: now, Estudiantes: []domain.GroupStudent{{Email: f.student.Mail, AddedAt: now}, {Email: f.other.Mail, AddedAt: now}}}); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) user(t *testing.T, id, mail string, role domain.Role) domain.User {
	t.Helper()
	u := domain.User{ID: id, Mail: mail, DisplayName: id, Role: role, CreatedAt: f.clock.Now()}
	if err := f.store.CreateUser(t.Context(), u); err != nil {
		t.Fatal(err)
	}
	return u
}

func (f *fixture) start(t *testing.T, u domain.User, mode domain.Mode) domain.Attempt {
	t.Helper()
	a, created, _, err := f.exams.Start(t.Context(), u, exams.StartRequest{Mode: mode})
	if err != nil || !created {
		t.Fatalf("start: created %v, %v", created, err)
	}
	return a
}

// finish walks a through its phases and self-assesses it.
func (f *fixture) finish(t *testing.T, a domain.Attempt) domain.Attempt {
	t.Helper()
	var err error
	for a.Phases[a.Current()].Kind != domain.PhaseSelfAssessment {
		if a, err = f.exams.Advance(t.Context(), f.student, a.ID, a.Current()); err != nil {
			t.Fatal(err)
		}
	}
	if a, err = f.exams.SelfAssess(t.Context(), f.student, a.ID, levels(a, 3)); err != nil {
		t.Fatal(err)
	}
	return a
}

func levels(a domain.Attempt, level int) domain.Levels {
	l := domain.Levels{}
	for _, c := range a.Rubric.Criteria {
		l[c.ID] = level
	}
	return l
}

// code is the API code of a user-facing error ("" for any other).
func code(err error) string {
	var ue *domain.UserError
	if errors.As(err, &ue) {
		return ue.Code
	}
	return ""
}

func TestStartReturnsTheAttemptInProgress(t *testing.T) {
	f := newFixture(t)
	a := f.start(t, f.student, domain.ModeMock)
	if a.Status != domain.AttemptInProgress || a.Version != 1 || a.GroupID != "g" || a.TutorEmail != tutorMail {
		t.Fatalf("started %+v", a)
	}
	if a.Current() != 0 || a.Phases[0].Kind != domain.PhasePreparation || !a.Phases[0].StartedAt.Equal(f.clock.Now()) {
		t.Fatalf("first phase %+v", a.Phases[0])
	}
	again, created, _, err := f.exams.Start(t.Context(), f.student, exams.StartRequest{Mode: domain.ModeTraining})
	if err != nil || created || again.ID != a.ID {
		t.Fatalf("second start = %s created %v, %v; want the attempt in progress %s", again.ID, created, err, a.ID)
	}
}

func TestStartRefusesAStudentWithoutGroup(t *testing.T) {
	f := newFixture(t)
	loner := f.user(t, "solo", "solo@utpl.edu.ec", domain.RoleStudent)
	_, _, _, err := f.exams.Start(t.Context(), loner, exams.StartRequest{Mode: domain.ModeTraining})
	var ue *domain.UserError
	if !errors.As(err, &ue) || ue.Code != groups.CodeNoActiveGroup || ue.Message != groups.MsgStudentWithoutGroup {
		t.Fatalf("start without a group: %v", err)
	}
}

func TestPhasesCloseOnServerTime(t *testing.T) {
	f := newFixture(t)
	a := f.start(t, f.student, domain.ModeMock)
	prep := time.Duration(a.Phases[0].LimitSec) * time.Second
	f.clock.Advance(prep - time.Second)
	if got, err := f.exams.Get(t.Context(), f.student, a.ID); err != nil || got.Current() != 0 {
		t.Fatalf("before the deadline: phase %d, %v", got.Current(), err)
	}
	// The browser said nothing (closed tab): the next read closes the
	// preparation at its deadline, not at the time of the read.
	f.clock.Advance(time.Minute)
	got, err := f.exams.Get(t.Context(), f.student, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	deadline := a.Phases[0].StartedAt.Add(prep)
	if got.Current() != 1 || !got.Phases[0].EndedAt.Equal(deadline) || !got.Phases[1].StartedAt.Equal(deadline) {
		t.Fatalf("after the deadline: current %d, phases %+v", got.Current(), got.Phases[:2])
	}
	if stored, _ := f.store.GetAttempt(t.Context(), a.ID); stored.Current() != 1 || stored.Version != 2 {
		t.Fatalf("the closed phase was not saved: current %d version %d", stored.Current(), stored.Version)
	}
}

func TestPhasesGoInOrder(t *testing.T) {
	f := newFixture(t)
	a := f.start(t, f.student, domain.ModeMock)
	if _, err := f.exams.Advance(t.Context(), f.student, a.ID, 1); !errors.Is(err, domain.ErrPhaseOrder) {
		t.Fatalf("advancing a phase not yet begun: %v", err)
	}
	a, err := f.exams.Advance(t.Context(), f.student, a.ID, 0)
	if err != nil || a.Current() != 1 || !a.Phases[0].EndedAt.Equal(f.clock.Now()) {
		t.Fatalf("advance: current %d, %v", a.Current(), err)
	}
	// A retry of the same step (a lost answer) changes nothing.
	again, err := f.exams.Advance(t.Context(), f.student, a.ID, 0)
	if err != nil || again.Current() != 1 {
		t.Fatalf("retried advance: current %d, %v", again.Current(), err)
	}
	if _, err := f.exams.Pause(t.Context(), f.student, a.ID); !errors.Is(err, domain.ErrModeForbids) {
		t.Fatalf("pausing a mock exam: %v", err)
	}
	if _, err := f.exams.Skip(t.Context(), f.student, a.ID, 1); !errors.Is(err, domain.ErrModeForbids) {
		t.Fatalf("skipping in a mock exam: %v", err)
	}
	if _, err := f.exams.Advance(t.Context(), f.other, a.ID, 1); code(err) != "attempt_not_found" {
		t.Fatalf("another student advancing it: %v", err)
	}
}

func TestTrainingPausesStopTheClock(t *testing.T) {
	f := newFixture(t)
	a := f.start(t, f.student, domain.ModeTraining)
	if _, err := f.exams.Pause(t.Context(), f.student, a.ID); err != nil {
		t.Fatal(err)
	}
	prep := time.Duration(a.Phases[0].LimitSec) * time.Second
	f.clock.Advance(prep + time.Minute) // paused all that time
	a, err := f.exams.Resume(t.Context(), f.student, a.ID)
	if err != nil || a.Current() != 0 || a.Phases[0].PausedSec != int((prep+time.Minute)/time.Second) {
		t.Fatalf("after the pause: current %d, paused %d s, %v", a.Current(), a.Phases[0].PausedSec, err)
	}
	if a, err = f.exams.Skip(t.Context(), f.student, a.ID, 0); err != nil || !a.Phases[0].Skipped || a.Current() != 1 {
		t.Fatalf("skip: %+v, %v", a.Phases[0], err)
	}
}

// racingStore makes a version conflict happen on purpose: before the
// service's save of an attempt reaches the store, "another request" saves
// the same attempt first (compete), so the service's copy is stale.
type racingStore struct {
	store.Store
	t       *testing.T
	compete func(a *domain.Attempt) // the other request's change; nil saves it unchanged
	rounds  int                     // how many saves get a competing write before them
	saves   int                     // UpdateAttempt calls from the service
	refused int                     // of those, refused with a version conflict
}

func (r *racingStore) UpdateAttempt(ctx context.Context, a domain.Attempt) error {
	r.saves++
	if r.saves <= r.rounds {
		other, err := r.GetAttempt(ctx, a.ID)
		if err != nil {
			r.t.Fatal(err)
		}
		if r.compete != nil {
			r.compete(&other)
		}
		if err := r.Store.UpdateAttempt(ctx, other); err != nil {
			r.t.Fatalf("the competing save: %v", err)
		}
	}
	err := r.Store.UpdateAttempt(ctx, a)
	if errors.Is(err, domain.ErrConflict) {
		r.refused++
	}
	return err
}

// Two requests change the same attempt: the other one saves first, the
// store refuses the service's stale save (a version conflict), and the
// service starts over on a fresh read, where the step is already taken.
func TestAVersionConflictIsRetriedOnAFreshRead(t *testing.T) {
	f := newFixture(t)
	a := f.start(t, f.student, domain.ModeMock)
	otherAt := f.clock.Now()
	racing := &racingStore{Store: f.store, t: t, rounds: 1,
		compete: func(o *domain.Attempt) {
			if err := o.Advance(0, otherAt); err != nil {
				t.Fatal(err)
			}
		}}
	svc := exams.NewService(racing, catalog.NewService(f.store, false), groups.NewService(f.store), nil)
	svc.SetClock(func() time.Time { return otherAt.Add(time.Second) })
	got, err := svc.Advance(t.Context(), f.student, a.ID, 0)
	if err != nil {
		t.Fatalf("advance after a conflict: %v", err)
	}
	if racing.refused != 1 || racing.saves != 2 {
		t.Fatalf("saves %d, refused %d: want the first save refused and the retry saved", racing.saves, racing.refused)
	}
	// The retry kept the other request's step: phase 0 ended when it said.
	if got.Current() != 1 || !got.Phases[0].EndedAt.Equal(otherAt) {
		t.Fatalf("after the retry: current %d, phase 0 ended %v (want %v)", got.Current(), got.Phases[0].EndedAt, otherAt)
	}
	stored, err := f.store.GetAttempt(t.Context(), a.ID)
	if err != nil || stored.Version != got.Version || !stored.Phases[0].EndedAt.Equal(otherAt) {
		t.Fatalf("stored: version %d (answered %d), %v", stored.Version, got.Version, err)
	}
	// A stale copy cannot overwrite the saved one.
	if err := f.store.UpdateAttempt(t.Context(), a); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("saving a stale attempt: %v", err)
	}
}

// A save that keeps losing the race gives up after four tries with the
// conflict, rather than looping while another writer holds the attempt.
func TestAVersionConflictThatPersistsIsReported(t *testing.T) {
	f := newFixture(t)
	a := f.start(t, f.student, domain.ModeMock)
	racing := &racingStore{Store: f.store, t: t, rounds: 100}
	svc := exams.NewService(racing, catalog.NewService(f.store, false), groups.NewService(f.store), nil)
	svc.SetClock(f.clock.Now)
	if _, err := svc.Advance(t.Context(), f.student, a.ID, 0); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("advance against a writer that always wins: %v", err)
	}
	if racing.saves != 4 || racing.refused != 4 {
		t.Fatalf("saves %d, refused %d: want 4 of each", racing.saves, racing.refused)
	}
}

// Two concurrent advances of the same phase both succeed, and the phase
// ends once.
func TestConcurrentAdvancesEndThePhaseOnce(t *testing.T) {
	f := newFixture(t)
	a := f.start(t, f.student, domain.ModeMock)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Go(func() { _, errs[i] = f.exams.Advance(context.Background(), f.student, a.ID, 0) })
	}
	wg.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("advances: %v", errs)
	}
	got, err := f.store.GetAttempt(t.Context(), a.ID)
	if err != nil || got.Current() != 1 || got.Phases[1].EndedAt != nil || !got.Phases[0].EndedAt.Equal(f.clock.Now()) {
		t.Fatalf("after two advances of phase 0: current %d, phases %+v, %v", got.Current(), got.Phases[:2], err)
	}
}

func TestFinishingAndGrading(t *testing.T) {
	f := newFixture(t)
	a := f.start(t, f.student, domain.ModeMock)
	if _, err := f.exams.SelfAssess(t.Context(), f.student, a.ID, levels(a, 3)); !errors.Is(err, domain.ErrNotSelfPhase) {
		t.Fatalf("self-assessing during the preparation: %v", err)
	}
	if _, err := f.exams.Grade(t.Context(), f.tutor, a.ID, levels(a, 4), ""); !errors.Is(err, domain.ErrNotFinished) {
		t.Fatalf("grading an attempt in progress: %v", err)
	}
	a = f.finish(t, a)
	if a.Status != domain.AttemptFinished || a.FinishedAt == nil || a.Self == nil || a.Self.Score <= 0 {
		t.Fatalf("finished: %+v", a)
	}
	if _, err := f.exams.Advance(t.Context(), f.student, a.ID, 0); !errors.Is(err, domain.ErrNotInProgress) {
		t.Fatalf("changing a finished attempt: %v", err)
	}
	// The same self-assessment again (a retry after a lost answer) is
	// answered with the finished attempt; a different one is refused.
	if again, err := f.exams.SelfAssess(t.Context(), f.student, a.ID, levels(a, 3)); err != nil || again.Self == nil || !again.Self.At.Equal(a.Self.At) {
		t.Fatalf("the same self-assessment again: %v", err)
	}
	if _, err := f.exams.SelfAssess(t.Context(), f.student, a.ID, levels(a, 2)); !errors.Is(err, domain.ErrNotInProgress) {
		t.Fatalf("another self-assessment of a finished attempt: %v", err)
	}
	if _, err := f.exams.Grade(t.Context(), f.student, a.ID, levels(a, 4), ""); code(err) != "not_group_tutor" {
		t.Fatalf("the student grading: %v", err)
	}
	stranger := f.user(t, "otra-tutora", "otra@utpl.edu.ec", domain.RoleTutor)
	if _, err := f.exams.Grade(t.Context(), stranger, a.ID, levels(a, 4), ""); code(err) != "attempt_not_found" {
		t.Fatalf("another tutor grading: %v", err)
	}
	g, err := f.exams.Grade(t.Context(), f.tutor, a.ID, levels(a, 4), "Bien.")
	if err != nil || g.Grade == nil || g.Grade.By != tutorMail || g.Grade.Comments != "Bien." {
		t.Fatalf("grade: %+v, %v", g.Grade, err)
	}
	if stored, _ := f.store.GetAttempt(t.Context(), a.ID); stored.Grade == nil || stored.Self == nil {
		t.Fatalf("stored: self %v grade %v", stored.Self, stored.Grade)
	}
}

func TestNotes(t *testing.T) {
	f := newFixture(t)
	a := f.start(t, f.student, domain.ModeTraining)
	if err := f.exams.SaveNotes(t.Context(), f.student, a.ID, "Art. 76 de la Constitución"); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.exams.Get(t.Context(), f.student, a.ID); got.Notes != "Art. 76 de la Constitución" {
		t.Fatalf("notes = %q", got.Notes)
	}
	if err := f.exams.SaveNotes(t.Context(), f.student, a.ID, strings.Repeat("a", exams.MaxNotes+1)); code(err) != "notes_too_long" {
		t.Fatalf("too long: %v", err)
	}
	if err := f.exams.SaveNotes(t.Context(), f.other, a.ID, "ajenas"); code(err) != "attempt_not_found" {
		t.Fatalf("another student's notes: %v", err)
	}
	a = f.finish(t, a)
	if err := f.exams.SaveNotes(t.Context(), f.student, a.ID, "tarde"); !errors.Is(err, domain.ErrNotInProgress) {
		t.Fatalf("notes after finishing: %v", err)
	}
	if got, _ := f.exams.Get(t.Context(), f.student, a.ID); got.Notes != "Art. 76 de la Constitución" {
		t.Fatalf("notes after the refusals = %q", got.Notes)
	}
}

func TestAttemptsPerDayLimit(t *testing.T) {
	f := newFixture(t)
	f.exams.SetLimits(exams.Limits{AttemptsPerDay: 2})
	for range 2 {
		a := f.start(t, f.student, domain.ModeTraining)
		if _, err := f.exams.Abandon(t.Context(), f.student, a.ID); err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(time.Hour)
	}
	_, _, _, err := f.exams.Start(t.Context(), f.student, exams.StartRequest{Mode: domain.ModeTraining})
	if code(err) != "too_many_attempts" || !errors.Is(err, domain.ErrTooManyRequests) || !strings.Contains(err.Error(), "22 horas") {
		t.Fatalf("third attempt in a day: %v", err)
	}
	f.clock.Advance(22 * time.Hour) // 24 h after the first start

	f.start(t, f.student, domain.ModeTraining)
}

func TestTakesPerPhaseLimit(t *testing.T) {
	f := newFixture(t)
	a := f.start(t, f.student, domain.ModeMock)
	if _, err := f.exams.PutRecording(t.Context(), f.student, a.ID, "rec-early-000001", 1, "audio/webm;codecs=opus"); !errors.Is(err, domain.ErrPhaseNotStarted) {
		t.Fatalf("recording the presentation during the preparation: %v", err)
	}
	a, err := f.exams.Advance(t.Context(), f.student, a.ID, 0)
	if err != nil {
		t.Fatal(err)
	}
	limit := f.exams.Limits().MockTakesPerPhase
	for i := range limit {
		rid := "rec-take-00000" + string(rune('a'+i))
		if _, err := f.exams.PutRecording(t.Context(), f.student, a.ID, rid, 1, "audio/webm;codecs=opus"); err != nil {
			t.Fatalf("take %d: %v", i+1, err)
		}
		// Asking again for the same take is a retry, not a new take.
		if _, err := f.exams.PutRecording(t.Context(), f.student, a.ID, rid, 1, "audio/webm;codecs=opus"); err != nil {
			t.Fatalf("take %d again: %v", i+1, err)
		}
	}
	if _, err := f.exams.PutRecording(t.Context(), f.student, a.ID, "rec-take-0000zz", 1, "audio/webm;codecs=opus"); code(err) != "too_many_takes" {
		t.Fatalf("one take too many: %v", err)
	}
}
