package domain

import (
	"errors"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

func testCase() Case {
	return Case{ID: "c1", DegreeID: "derecho", Area: "Penal", Title: "Legítima defensa", Facts: "…",
		Questions: []string{"¿Responde?"}, FollowUps: []string{"uno", "dos"}, KeyPoints: []string{"k"},
		LegalBases: []LegalBase{{Norm: "COIP", Article: "33"}}, Difficulty: DifficultyBasic, Status: CaseActive}
}

func newTestAttempt(mode Mode) Attempt {
	bp := Blueprint{PreparationSec: 60, PresentationSec: 120, Questions: 3, ThinkSec: 10, AnswerSec: 30, ClosingSec: 20}
	return NewAttempt("a1", User{ID: "u1", Mail: "e@utpl.edu.ec"}, testCase(), bp, DefaultRubric("derecho"), mode, t0)
}

func kinds(a Attempt) []string {
	var out []string
	for _, p := range a.Phases {
		k := string(p.Kind)
		if p.Index > 0 {
			k += string(rune('0' + p.Index))
		}
		out = append(out, k)
	}
	return out
}

func TestPlanUsesTheCaseFollowUps(t *testing.T) {
	a := newTestAttempt(ModeMock)
	want := []string{"preparation", "presentation", "think1", "answer1", "think2", "answer2", "closing", "self_assessment"}
	if got := kinds(a); len(got) != len(want) {
		t.Fatalf("phases = %v, want %v (3 questions configured, 2 follow-ups in the case)", got, want)
	}
	for i := range want {
		if kinds(a)[i] != want[i] {
			t.Fatalf("phases = %v", kinds(a))
		}
	}
	if a.Current() != 0 || !a.Phases[0].StartedAt.Equal(t0) {
		t.Fatalf("first phase not started: %+v", a.Phases[0])
	}
}

func TestAdvanceInOrderOnly(t *testing.T) {
	a := newTestAttempt(ModeMock)
	if err := a.Advance(1, t0.Add(time.Second)); !errors.Is(err, ErrPhaseOrder) {
		t.Fatalf("skipping ahead: %v", err)
	}
	if err := a.Advance(0, t0.Add(30*time.Second)); err != nil {
		t.Fatal(err)
	}
	if a.Current() != 1 || a.Phases[0].UsedSec(t0) != 30 || !a.Phases[1].StartedAt.Equal(t0.Add(30*time.Second)) {
		t.Fatalf("after advance: current %d, %+v", a.Current(), a.Phases[:2])
	}
	// A retry of the same advance is harmless and changes nothing.
	before := *a.Phases[1].StartedAt
	if err := a.Advance(0, t0.Add(40*time.Second)); err != nil || !a.Phases[1].StartedAt.Equal(before) {
		t.Fatalf("retry: %v, %v", err, a.Phases[1].StartedAt)
	}
}

func TestServerTimeClosesExpiredPhasesAtTheirDeadline(t *testing.T) {
	a := newTestAttempt(ModeMock)
	// The browser vanished for 200 s: preparation (60) and presentation (120)
	// ended at their deadlines; the first think time (10) too; the answer is under way.
	now := t0.Add(200 * time.Second)
	if !a.Sync(now) {
		t.Fatal("nothing synced")
	}
	if got := a.Current(); got != 3 {
		t.Fatalf("current = %d, want 3 (answer 1)", got)
	}
	if !a.Phases[1].EndedAt.Equal(t0.Add(180*time.Second)) || a.Phases[1].UsedSec(now) != 120 {
		t.Fatalf("presentation = %+v", a.Phases[1])
	}
	if !a.Phases[3].StartedAt.Equal(t0.Add(190 * time.Second)) {
		t.Fatalf("answer started at %v", a.Phases[3].StartedAt)
	}
	// Advancing the presentation late is a no-op, not a way to reopen it.
	if err := a.Advance(1, now); err != nil || a.Current() != 3 {
		t.Fatalf("late advance: %v, current %d", err, a.Current())
	}
	// Limits cannot be stretched: the self-assessment waits once everything expired.
	a.Sync(t0.Add(time.Hour))
	if a.Phases[a.Current()].Kind != PhaseSelfAssessment {
		t.Fatalf("after an hour current = %v", a.Phases[a.Current()].Kind)
	}
}

func TestMockForbidsPauseAndSkip(t *testing.T) {
	a := newTestAttempt(ModeMock)
	for name, err := range map[string]error{
		"pause":  a.Pause(t0.Add(time.Second)),
		"resume": a.Resume(t0.Add(time.Second)),
		"skip":   a.Skip(0, t0.Add(time.Second)),
	} {
		if !errors.Is(err, ErrModeForbids) {
			t.Errorf("%s in simulacro: %v", name, err)
		}
	}
}

func TestTrainingPauseExtendsTheDeadline(t *testing.T) {
	a := newTestAttempt(ModeTraining)
	if err := a.Pause(t0.Add(50 * time.Second)); err != nil {
		t.Fatal(err)
	}
	// Paused: no deadline, nothing expires.
	a.Sync(t0.Add(10 * time.Minute))
	if a.Current() != 0 {
		t.Fatalf("paused phase expired")
	}
	if err := a.Resume(t0.Add(10*time.Minute + 50*time.Second)); err != nil {
		t.Fatal(err)
	}
	d, _ := a.Phases[0].Deadline()
	if want := t0.Add(60*time.Second + 600*time.Second); !d.Equal(want) {
		t.Fatalf("deadline = %v, want %v", d, want)
	}
	if used := a.Phases[0].UsedSec(t0.Add(11 * time.Minute)); used != 60 {
		t.Fatalf("used = %d", used)
	}
	if err := a.Skip(0, t0.Add(10*time.Minute+55*time.Second)); err != nil || !a.Phases[0].Skipped || a.Current() != 1 {
		t.Fatalf("skip: %v %+v", err, a.Phases[0])
	}
}

func TestSelfAssessmentFinishesAndNothingReopens(t *testing.T) {
	a := newTestAttempt(ModeMock)
	levels := Levels{}
	for _, c := range a.Rubric.Criteria {
		levels[c.ID] = 3
	}
	if err := a.SelfAssess(levels, t0.Add(time.Second)); !errors.Is(err, ErrNotSelfPhase) {
		t.Fatalf("self-assessment before the end: %v", err)
	}
	a.Sync(t0.Add(time.Hour))
	if a.Revealed() {
		t.Fatal("case revealed before the self-assessment")
	}
	if err := a.Advance(a.Current(), t0.Add(time.Hour)); !errors.Is(err, ErrNotSelfPhase) {
		t.Fatalf("advancing past the self-assessment: %v", err)
	}
	if err := a.SelfAssess(Levels{"C1": 3}, t0.Add(time.Hour)); err == nil {
		t.Fatal("incomplete levels accepted")
	}
	if err := a.SelfAssess(levels, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if a.Status != AttemptFinished || !a.Revealed() || a.Self.Score != 7.5 {
		t.Fatalf("after self-assessment: %v %+v", a.Status, a.Self)
	}
	for name, err := range map[string]error{
		"advance": a.Advance(0, t0.Add(2*time.Hour)),
		"self":    a.SelfAssess(levels, t0.Add(2*time.Hour)),
		"abandon": a.Abandon(t0.Add(2 * time.Hour)),
	} {
		if !errors.Is(err, ErrNotInProgress) {
			t.Errorf("%s on a finished attempt: %v", name, err)
		}
	}
	if err := a.GradeBy(User{Mail: "tutor@utpl.edu.ec", DisplayName: "Tania Ruiz"}, levels, "Bien", t0.Add(3*time.Hour)); err != nil || a.Grade.Score != 7.5 || a.Grade.ByName != "Tania Ruiz" {
		t.Fatalf("grade: %v %+v", err, a.Grade)
	}
}

func TestGradeNeedsAFinishedAttempt(t *testing.T) {
	a := newTestAttempt(ModeTraining)
	if err := a.GradeBy(User{Mail: "t@x.ec"}, Levels{}, "", t0); !errors.Is(err, ErrNotFinished) {
		t.Fatalf("grade in progress: %v", err)
	}
	if err := a.Abandon(t0.Add(time.Minute)); err != nil || a.Status != AttemptAbandoned {
		t.Fatal(err)
	}
}

func TestTakesOnlyForStartedPhasesOfUngradedAttempts(t *testing.T) {
	a := newTestAttempt(ModeMock)
	if err := a.AcceptsTake(1); !errors.Is(err, ErrPhaseNotStarted) {
		t.Fatalf("presentation during the preparation: %v", err)
	}
	a.Sync(t0.Add(70 * time.Second)) // the preparation (60 s) ended by server time
	if err := a.AcceptsTake(1); err != nil {
		t.Fatalf("presentation under way: %v", err)
	}
	if err := a.AcceptsTake(len(a.Phases)); !errors.Is(err, ErrPhaseNotStarted) {
		t.Fatalf("no such phase: %v", err)
	}
	a.Sync(t0.Add(time.Hour))
	if err := a.SelfAssess(allLevels(a.Rubric, 3), t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := a.AcceptsTake(1); err != nil {
		t.Fatalf("finished, not graded (a lagging upload): %v", err)
	}
	if err := a.GradeBy(User{Mail: "tutor@utpl.edu.ec"}, allLevels(a.Rubric, 3), "", t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := a.AcceptsTake(1); !errors.Is(err, ErrAttemptGraded) {
		t.Fatalf("graded: %v", err)
	}
}

func TestTakeLateComparesRegistrationWithItsPhaseEnd(t *testing.T) {
	a := newTestAttempt(ModeMock)
	a.Sync(t0.Add(200 * time.Second)) // presentation: t0+60 … t0+180
	at := func(d time.Duration) Recording { return Recording{Phase: 1, CreatedAt: t0.Add(d)} }
	for _, tc := range []struct {
		r    Recording
		late bool
	}{
		{at(61 * time.Second), false},                              // during the phase
		{at(180*time.Second + LateTakeGrace), false},               // its first chunk just after the end
		{at(181*time.Second + LateTakeGrace), true},                // registered after the phase
		{Recording{Phase: 3, CreatedAt: t0.Add(time.Hour)}, false}, // answer 1 still under way
	} {
		if got := a.TakeLate(tc.r); got != tc.late {
			t.Errorf("phase %d registered at %v: late %v, want %v", tc.r.Phase, tc.r.CreatedAt.Sub(t0), got, tc.late)
		}
	}
}
