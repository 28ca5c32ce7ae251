// Package exams owns rehearsals: drawing a case, the timed phases under
// server time, recordings uploaded in chunks, self-assessment, the tutor's
// grade, and the progress figures built from them.
package exams

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"time"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
)

// recentCases is how many of a student's last cases the draw avoids.
const recentCases = 5

// Service runs rehearsals.
type Service struct {
	store   store.Store
	catalog *catalog.Service
	groups  *groups.Service
	media   media.Store
	log     *slog.Logger
	now     func() time.Time
	limits  Limits

	onComplete func(context.Context, domain.Recording) error
	// composeQueue feeds the background composer (StartComposer); nil
	// when Complete composes before answering.
	composeQueue chan domain.Recording
	onGraded     func(context.Context, domain.Attempt) error
	// owners knows the owner of the attempts recently uploaded to.
	owners *ownerCache
}

// NewService wires the exams service.
func NewService(s store.Store, c *catalog.Service, g *groups.Service, m media.Store) *Service {
	return &Service{store: s, catalog: c, groups: g, media: m, log: slog.Default(), now: time.Now, limits: DefaultLimits(), owners: newOwnerCache()}
}

// SetClock replaces the clock (tests drive phase deadlines with it).
func (s *Service) SetClock(now func() time.Time) { s.now = now }

// Context is where a user practises: the degree and, for a student, the
// active group (whose tutor may see and grade the attempts).
type Context struct {
	Degree domain.Degree
	Group  *domain.Group
}

// PracticeContext finds the degree a user practises: a student's active
// group's; for a tutor, the requested degree, else their active group's,
// else the first degree.
func (s *Service) PracticeContext(ctx context.Context, u domain.User, requestedDegree string) (Context, error) {
	if !u.IsTutor() {
		g, err := s.groups.ActiveGroupOf(ctx, u.Mail)
		if errors.Is(err, domain.ErrNotFound) {
			return Context{}, domain.Forbidden(groups.CodeNoActiveGroup, groups.MsgStudentWithoutGroup)
		}
		if err != nil {
			return Context{}, err
		}
		d, err := s.catalog.Degree(ctx, g.Carrera)
		return Context{Degree: d, Group: &g}, err
	}
	id := requestedDegree
	if id == "" {
		if g, err := s.groups.ActiveGroup(ctx, u); err == nil {
			id = g.Carrera
		}
	}
	if id == "" {
		ds, err := s.catalog.Degrees(ctx)
		if err != nil {
			return Context{}, err
		}
		if len(ds) == 0 {
			return Context{}, domain.NotFound("no_degrees", "No hay carreras configuradas.")
		}
		id = ds[0].ID
	}
	d, err := s.catalog.Degree(ctx, id)
	return Context{Degree: d}, err
}

// Overview is what the simulator's first screen needs.
type Overview struct {
	Degree    domain.Degree
	Blueprint domain.Blueprint
	Rubric    domain.Rubric
	Areas     []string
	// Difficulties are those of the degree's active cases.
	Difficulties []domain.Difficulty
	InProgress   *domain.Attempt
}

// Overview returns the degree's format, rubric, areas and any attempt in
// progress.
func (s *Service) Overview(ctx context.Context, u domain.User, requestedDegree string) (Overview, error) {
	pc, err := s.PracticeContext(ctx, u, requestedDegree)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{Degree: pc.Degree}
	if o.Blueprint, err = s.catalog.Blueprint(ctx, pc.Degree.ID); err != nil {
		return o, err
	}
	if o.Rubric, err = s.catalog.Rubric(ctx, pc.Degree.ID); err != nil {
		return o, err
	}
	if o.Areas, err = s.catalog.Areas(ctx, pc.Degree.ID); err != nil {
		return o, err
	}
	if o.Difficulties, err = s.catalog.Difficulties(ctx, pc.Degree.ID); err != nil {
		return o, err
	}
	a, err := s.store.InProgressAttempt(ctx, u.ID)
	switch {
	case err == nil:
		if _, err := s.sync(ctx, &a); err != nil {
			return o, err
		}
		o.InProgress = &a
	case !errors.Is(err, domain.ErrNotFound):
		return o, err
	}
	return o, nil
}

// StartRequest is what a user asks for when starting an attempt.
type StartRequest struct {
	Mode domain.Mode
	// Area and Difficulty narrow a training draw ("" = any); a mock exam
	// ignores both.
	Area       string
	Difficulty domain.Difficulty
	// Directed asks a training draw to aim at the student's weakest area
	// and difficulty (see WeakestTarget); Area and Difficulty are then
	// ignored.
	Directed bool
	// Degree is the degree a tutor practises ("" = the default one).
	Degree string
}

// Start draws a case and starts an attempt. When the user already has an
// attempt in progress it is returned instead (created = false): a student
// cannot draw again by starting over. The area and difficulty filters apply
// to training only; a mock exam draws from the whole bank, its difficulty
// picked by the degree's mix, and abandoning one does not re-draw it: while
// the user's latest mock exam is abandoned and its case still active, the
// next mock exam gets that case again. A new directed training draw also
// answers where it aimed (directed; nil for any other start).
func (s *Service) Start(ctx context.Context, u domain.User, req StartRequest) (_ domain.Attempt, created bool, directed *Target, _ error) {
	mode, area, requestedDegree := req.Mode, req.Area, req.Degree
	if cur, err := s.store.InProgressAttempt(ctx, u.ID); err == nil {
		_, err := s.sync(ctx, &cur)
		return cur, false, nil, err
	} else if !errors.Is(err, domain.ErrNotFound) {
		return domain.Attempt{}, false, nil, err
	}
	pc, err := s.PracticeContext(ctx, u, requestedDegree)
	if err != nil {
		return domain.Attempt{}, false, nil, err
	}
	if err := s.checkAttemptsPerDay(ctx, u, s.now()); err != nil {
		return domain.Attempt{}, false, nil, err
	}
	bp, err := s.catalog.Blueprint(ctx, pc.Degree.ID)
	if err != nil {
		return domain.Attempt{}, false, nil, err
	}
	var c domain.Case
	again := false
	draw := catalog.DrawRequest{DegreeID: pc.Degree.ID, Area: area, Difficulty: req.Difficulty}
	if mode == domain.ModeMock {
		mix := bp.DifficultyMix.OrDefault()
		draw = catalog.DrawRequest{DegreeID: pc.Degree.ID, Mix: &mix}
		if c, again, err = s.abandonedMockCase(ctx, u.ID, pc.Degree.ID); err != nil {
			return domain.Attempt{}, false, nil, err
		}
	}
	if !again {
		if draw.Recent, err = s.store.RecentCaseIDs(ctx, u.ID, recentCases); err != nil {
			return domain.Attempt{}, false, nil, err
		}
		if c, directed, err = s.draw(ctx, u, mode, req.Directed, draw); err != nil {
			return domain.Attempt{}, false, nil, err
		}
	}
	rubric, err := s.catalog.Rubric(ctx, pc.Degree.ID)
	if err != nil {
		return domain.Attempt{}, false, nil, err
	}
	a := domain.NewAttempt(domain.NewID(), u, c, bp, rubric, mode, s.now())
	if pc.Group != nil {
		a.GroupID, a.TutorEmail = pc.Group.ID, pc.Group.DocenteEmail
	}
	if err := s.store.CreateAttempt(ctx, a); err != nil {
		if errors.Is(err, domain.ErrConflict) { // another tab started one just now
			cur, gerr := s.store.InProgressAttempt(ctx, u.ID)
			return cur, false, nil, gerr
		}
		return a, false, nil, err
	}
	a.Version = 1
	return a, true, directed, nil
}

// draw picks the case: a directed training draw aims at the student's
// weakest area and difficulty, and answers that target; without results
// yet it draws from the whole bank and says so (NoTargetReason).
func (s *Service) draw(ctx context.Context, u domain.User, mode domain.Mode, directed bool, r catalog.DrawRequest) (domain.Case, *Target, error) {
	if !directed || mode != domain.ModeTraining {
		c, err := s.catalog.Draw(ctx, r)
		return c, nil, err
	}
	t, ok, err := s.DirectedTarget(ctx, u.ID, r.DegreeID)
	if err != nil {
		return domain.Case{}, nil, err
	}
	if !ok {
		t = Target{Reason: NoTargetReason}
	}
	c, err := s.drawDirected(ctx, r.DegreeID, t, r.Recent)
	return c, &t, err
}

// abandonedMockCase is the case of the user's latest mock exam when that
// exam was abandoned and its case is still active in the degree: a student
// cannot re-draw in a mock exam by abandoning it (docs/product.md).
func (s *Service) abandonedMockCase(ctx context.Context, userID, degreeID string) (domain.Case, bool, error) {
	last, err := s.store.ListAttempts(ctx, store.AttemptFilter{StudentID: userID, Mode: domain.ModeMock, Limit: 1})
	if err != nil || len(last) == 0 || last[0].Status != domain.AttemptAbandoned {
		return domain.Case{}, false, err
	}
	a, err := s.store.GetAttempt(ctx, last[0].ID)
	if err != nil {
		return domain.Case{}, false, err
	}
	c, err := s.store.GetCase(ctx, a.Case.ID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.Case{}, false, nil
	}
	if err != nil {
		return domain.Case{}, false, err
	}
	return c, c.Status == domain.CaseActive && c.DegreeID == degreeID, nil
}

// canView: the attempt's student, or the tutor of the group it was made in.
func canView(u domain.User, a domain.Attempt) bool {
	return a.StudentID == u.ID || (u.IsTutor() && a.TutorEmail != "" && a.TutorEmail == u.Mail)
}

// load returns an attempt the viewer may see; anyone else gets not found, so
// attempts of others are not even confirmed to exist.
func (s *Service) load(ctx context.Context, u domain.User, id string) (domain.Attempt, error) {
	a, err := s.store.GetAttempt(ctx, id)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return domain.Attempt{}, domain.NotFound("attempt_not_found", "El intento no existe.")
	case err == nil && !canView(u, a):
		return domain.Attempt{}, domain.Hide(domain.NotFound("attempt_not_found", "El intento no existe."))
	}
	return a, err
}

// loadOwn is load for actions only the student may take.
func (s *Service) loadOwn(ctx context.Context, u domain.User, id string) (domain.Attempt, error) {
	a, err := s.load(ctx, u, id)
	if err == nil && a.StudentID != u.ID {
		return a, domain.Forbidden("not_owner", "Solo el estudiante puede realizar esta acción en su intento.")
	}
	return a, err
}

// sync closes expired phases and saves the attempt when that changed it.
func (s *Service) sync(ctx context.Context, a *domain.Attempt) (bool, error) {
	if !a.Sync(s.now()) {
		return false, nil
	}
	if err := s.store.UpdateAttempt(ctx, *a); err != nil {
		if errors.Is(err, domain.ErrConflict) {
			fresh, gerr := s.store.GetAttempt(ctx, a.ID)
			if gerr != nil {
				return false, gerr
			}
			*a = fresh
			a.Sync(s.now())
			return true, nil
		}
		return false, err
	}
	a.Version++
	return true, nil
}

// Get returns an attempt to its student or its group's tutor.
func (s *Service) Get(ctx context.Context, u domain.User, id string) (domain.Attempt, error) {
	a, err := s.load(ctx, u, id)
	if err != nil {
		return a, err
	}
	_, err = s.sync(ctx, &a)
	return a, err
}

// mutate applies change to the student's attempt and saves it.
func (s *Service) mutate(ctx context.Context, u domain.User, id string, change func(a *domain.Attempt, now time.Time) error) (domain.Attempt, error) {
	return s.update(ctx, func() (domain.Attempt, error) { return s.loadOwn(ctx, u, id) }, change)
}

// update loads an attempt, applies change and saves it, starting over when
// a concurrent request saved it first (optimistic concurrency).
func (s *Service) update(ctx context.Context, load func() (domain.Attempt, error), change func(a *domain.Attempt, now time.Time) error) (domain.Attempt, error) {
	for try := 0; ; try++ {
		a, err := load()
		if err != nil {
			return a, err
		}
		if err := change(&a, s.now()); err != nil {
			return a, err
		}
		err = s.store.UpdateAttempt(ctx, a)
		if errors.Is(err, domain.ErrConflict) && try < 3 {
			continue
		}
		if err == nil {
			a.Version++
		}
		return a, err
	}
}

// Advance ends phase from and starts the next.
func (s *Service) Advance(ctx context.Context, u domain.User, id string, from int) (domain.Attempt, error) {
	return s.mutate(ctx, u, id, func(a *domain.Attempt, now time.Time) error { return a.Advance(from, now) })
}

// Skip passes over phase from (training only).
func (s *Service) Skip(ctx context.Context, u domain.User, id string, from int) (domain.Attempt, error) {
	return s.mutate(ctx, u, id, func(a *domain.Attempt, now time.Time) error { return a.Skip(from, now) })
}

// Pause stops the clock (training only).
func (s *Service) Pause(ctx context.Context, u domain.User, id string) (domain.Attempt, error) {
	return s.mutate(ctx, u, id, func(a *domain.Attempt, now time.Time) error { return a.Pause(now) })
}

// Resume restarts the clock (training only).
func (s *Service) Resume(ctx context.Context, u domain.User, id string) (domain.Attempt, error) {
	return s.mutate(ctx, u, id, func(a *domain.Attempt, now time.Time) error { return a.Resume(now) })
}

// MaxNotes bounds the preparation notes.
const MaxNotes = 20000

// SaveNotes keeps the student's preparation notes.
func (s *Service) SaveNotes(ctx context.Context, u domain.User, id, notes string) error {
	if len([]rune(notes)) > MaxNotes {
		return domain.Invalid("notes_too_long", "Las notas no pueden superar los 20000 caracteres.")
	}
	// The usual case, the owner saving an attempt in progress, is one
	// write; anything else goes the long way, which finds the right refusal.
	if err := s.store.SaveNotes(ctx, id, u.ID, notes); !errors.Is(err, domain.ErrNotFound) {
		return err
	}
	_, err := s.mutate(ctx, u, id, func(a *domain.Attempt, now time.Time) error {
		if a.Status != domain.AttemptInProgress {
			return domain.ErrNotInProgress
		}
		a.Notes = notes
		return nil
	})
	return err
}

// SelfAssess records the self-assessment, finishing the attempt.
// The same self-assessment sent again (its answer was lost on the way,
// and the browser retried) is answered with the finished attempt, not a
// refusal: a retry must not turn a success into an error.
func (s *Service) SelfAssess(ctx context.Context, u domain.User, id string, levels domain.Levels) (domain.Attempt, error) {
	a, err := s.mutate(ctx, u, id, func(a *domain.Attempt, now time.Time) error { return a.SelfAssess(levels, now) })
	if errors.Is(err, domain.ErrNotInProgress) {
		done, lerr := s.load(ctx, u, id)
		if lerr == nil && done.StudentID == u.ID && done.Self != nil && maps.Equal(done.Self.Levels, levels) {
			return done, nil
		}
	}
	return a, err
}

// Abandon ends an attempt without a result.
func (s *Service) Abandon(ctx context.Context, u domain.User, id string) (domain.Attempt, error) {
	return s.mutate(ctx, u, id, func(a *domain.Attempt, now time.Time) error { return a.Abandon(now) })
}

// Grade records the tutor's grade; only the tutor of the group the attempt
// was made in may grade it.
func (s *Service) Grade(ctx context.Context, tutor domain.User, id string, levels domain.Levels, comments string) (domain.Attempt, error) {
	load := func() (domain.Attempt, error) {
		a, err := s.load(ctx, tutor, id)
		if err == nil && (!tutor.IsTutor() || a.TutorEmail != tutor.Mail) {
			return a, domain.Forbidden("not_group_tutor", "Solo el tutor del grupo puede calificar este intento.")
		}
		return a, err
	}
	a, err := s.update(ctx, load, func(a *domain.Attempt, now time.Time) error { return a.GradeBy(tutor, levels, comments, now) })
	if err == nil && s.onGraded != nil {
		// The grade is saved: a failing hook (the course gradebook) is
		// logged, and the tutor can send it again from the attempt.
		if herr := s.onGraded(ctx, a); herr != nil {
			s.log.Warn("after grading", "attempt", a.ID, "err", herr)
		}
	}
	return a, err
}

// OnGraded registers what to do once a tutor's grade is saved (e.g. queue
// its publication to the course's gradebook).
func (s *Service) OnGraded(f func(context.Context, domain.Attempt) error) { s.onGraded = f }
