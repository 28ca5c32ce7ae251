package lti

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// JobKind names the jobs that publish a Simulacro's grade to its course.
const JobKind = "lti_score"

// A job is about one grade of one attempt: a regrade is another job, and
// a job whose grade was replaced meanwhile publishes nothing.
func scoreSubject(attemptID string, gradedAt time.Time) string {
	return attemptID + "|" + strconv.FormatInt(gradedAt.UnixMilli(), 10)
}

type scorePayload struct {
	AttemptID string `json:"attemptId"`
	GradedAt  int64  `json:"gradedAt"` // Unix milliseconds of the grade
}

// sendable reports whether an attempt's grade goes to a course: a graded
// Simulacro.
func sendable(a domain.Attempt) bool { return a.Mode == domain.ModeMock && a.Grade != nil }

// OnGraded queues the publication of a graded Simulacro whose group is
// linked to a course column; it is the exams service's grading hook.
func (s *Service) OnGraded(ctx context.Context, a domain.Attempt) error {
	if !sendable(a) || a.GroupID == "" {
		return nil
	}
	link, err := s.store.GetLTIGroupLink(ctx, a.GroupID)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && link.LineItemURL == "") {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = s.enqueueScore(ctx, a)
	if errors.Is(err, domain.ErrConflict) {
		return nil
	}
	return err
}

func (s *Service) enqueueScore(ctx context.Context, a domain.Attempt) (string, error) {
	p, _ := json.Marshal(scorePayload{AttemptID: a.ID, GradedAt: a.Grade.At.UnixMilli()})
	now := s.now().UTC()
	id := domain.NewID()
	err := s.store.EnqueueJob(ctx, domain.Job{ID: id, Kind: JobKind, Subject: scoreSubject(a.ID, a.Grade.At), Payload: string(p),
		NextRunAt: now, CreatedAt: now})
	if err == nil {
		s.Wake()
	}
	return id, err
}

// Wake tells the worker a job is due.
func (s *Service) Wake() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Score states an attempt shows the tutor.
const (
	ScoreNone     = "none"     // not a graded Simulacro of a group loaded from a course
	ScoreUnlinked = "unlinked" // the group has no course column yet
	ScoreUnsent   = "unsent"   // graded before the group had a column: not sent
	ScorePending  = "pending"  // queued or being sent (Error holds the last failure while retrying)
	ScoreSent     = "sent"
	ScoreFailed   = "error" // given up (Error says why)
)

// ScoreStatus says whether an attempt's grade reached the course.
type ScoreStatus struct {
	State  string
	Error  string
	Column string // the linked column's label
}

// tutorAttempt is an attempt of the tutor's groups; any other is not found.
func (s *Service) tutorAttempt(ctx context.Context, tutor domain.User, attemptID string) (domain.Attempt, error) {
	a, err := s.store.GetAttempt(ctx, attemptID)
	if err != nil {
		return a, err
	}
	if !tutor.IsTutor() || a.TutorEmail != tutor.Mail {
		return domain.Attempt{}, domain.ErrNotFound
	}
	return a, nil
}

// ScoreStatus tells the tutor of an attempt's group whether its grade
// reached the course.
func (s *Service) ScoreStatus(ctx context.Context, tutor domain.User, attemptID string) (ScoreStatus, error) {
	a, err := s.tutorAttempt(ctx, tutor, attemptID)
	if err != nil {
		return ScoreStatus{}, err
	}
	return s.scoreStatus(ctx, a)
}

func (s *Service) scoreStatus(ctx context.Context, a domain.Attempt) (ScoreStatus, error) {
	if !sendable(a) || a.GroupID == "" {
		return ScoreStatus{State: ScoreNone}, nil
	}
	link, err := s.store.GetLTIGroupLink(ctx, a.GroupID)
	if errors.Is(err, domain.ErrNotFound) {
		return ScoreStatus{State: ScoreNone}, nil
	}
	if err != nil {
		return ScoreStatus{}, err
	}
	if link.LineItemURL == "" {
		return ScoreStatus{State: ScoreUnlinked}, nil
	}
	st := ScoreStatus{Column: link.LineItemLabel}
	job, err := s.store.GetJobBySubject(ctx, JobKind, scoreSubject(a.ID, a.Grade.At))
	switch {
	case errors.Is(err, domain.ErrNotFound):
		st.State = ScoreUnsent
	case err != nil:
		return ScoreStatus{}, err
	case job.Status == domain.JobDone:
		st.State = ScoreSent
	case job.Status == domain.JobFailed:
		st.State, st.Error = ScoreFailed, job.LastError
	default:
		st.State, st.Error = ScorePending, job.LastError
	}
	return st, nil
}

// SendScore sends (or sends again) an attempt's grade to the course: the
// tutor's "Enviar" / "Reenviar".
func (s *Service) SendScore(ctx context.Context, tutor domain.User, attemptID string) (ScoreStatus, error) {
	a, err := s.tutorAttempt(ctx, tutor, attemptID)
	if err != nil {
		return ScoreStatus{}, err
	}
	st, err := s.scoreStatus(ctx, a)
	if err != nil {
		return st, err
	}
	switch st.State {
	case ScoreNone:
		return st, domain.Invalid("score_not_sendable", "Solo la calificación de un simulacro de un grupo cargado desde un curso se envía al curso.")
	case ScoreUnlinked:
		return st, domain.Invalid(CodeNotLinked, "Vincule primero el grupo a una columna del curso (página Grupo).")
	case ScorePending:
		return st, nil // already on its way
	case ScoreUnsent:
		if _, err := s.enqueueScore(ctx, a); err != nil && !errors.Is(err, domain.ErrConflict) {
			return st, err
		}
	default:
		job, err := s.store.GetJobBySubject(ctx, JobKind, scoreSubject(a.ID, a.Grade.At))
		if err != nil {
			return st, err
		}
		if err := s.store.RetryJob(ctx, job.ID, s.now().UTC()); err != nil && !errors.Is(err, domain.ErrConflict) {
			return st, err
		}
		s.Wake()
	}
	return s.scoreStatus(ctx, a)
}

// permanentError is a publication that retrying cannot fix; its message
// is Spanish, for the tutor.
type permanentError struct{ msg string }

func (e *permanentError) Error() string { return e.msg }

// transientError is a failure worth retrying; its message is Spanish.
type transientError struct{ msg string }

func (e *transientError) Error() string { return e.msg }

// publish sends one job's grade.
func (s *Service) publish(ctx context.Context, job domain.Job) error {
	var p scorePayload
	if err := json.Unmarshal([]byte(job.Payload), &p); err != nil {
		return &permanentError{"Datos del envío dañados."}
	}
	a, err := s.store.GetAttempt(ctx, p.AttemptID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if !sendable(a) || a.Grade.At.UnixMilli() != p.GradedAt {
		return nil // regraded since: that grade has its own job
	}
	link, err := s.store.GetLTIGroupLink(ctx, a.GroupID)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && link.LineItemURL == "") {
		return &permanentError{"El grupo no está vinculado a una columna del curso."}
	}
	if err != nil {
		return err
	}
	c, err := s.store.GetLTICourse(ctx, link.CourseID)
	if err != nil {
		return err
	}
	platform, err := s.store.GetLTIPlatform(ctx, c.PlatformID)
	if errors.Is(err, domain.ErrNotFound) {
		return &permanentError{"La plataforma del curso ya no está registrada en el simulador."}
	}
	if err != nil {
		return err
	}
	sub, err := s.store.LTISubjectByEmail(ctx, platform.ID, a.StudentEmail)
	if errors.Is(err, domain.ErrNotFound) {
		return &permanentError{"El estudiante no figura en el curso: ábralo desde el curso o actualice el grupo desde el curso, y reenvíe."}
	}
	if err != nil {
		return err
	}
	if len(c.ServiceScopes) > 0 && !slices.Contains(c.ServiceScopes, ScopeScore) {
		return &permanentError{"La plataforma no permite que el simulador publique calificaciones en este curso: la herramienta no tiene el permiso " +
			"de publicar notas (score) del servicio de calificaciones. Pida al administrador de la plataforma que lo habilite y reenvíe."}
	}
	// A platform keeps a (column, student) score only when its timestamp is
	// later than the last one it took, and may refuse one that is not (AGS
	// says the timestamps must strictly increase; Canvas answers 400). So
	// every publication, a resend of a grade already delivered included,
	// is stamped with the time it is sent, never before the grade itself.
	err = s.postScore(ctx, platform, link.LineItemURL, Score{
		UserID: sub.Subject, ScoreGiven: a.Grade.Score, ScoreMaximum: ColumnMaximum, Comment: a.Grade.Comments,
		Timestamp: scoreTimestamp(latest(s.now(), a.Grade.At)), ActivityProgress: "Completed", GradingProgress: "FullyGraded",
	})
	var pe *PlatformError
	if errors.As(err, &pe) {
		s.log.Warn("lti score not published", "attempt", a.ID, "platform", platform.Issuer, "err", err)
		if pe.permanent() {
			return &permanentError{pe.Spanish()}
		}
		return &transientError{pe.Spanish()}
	}
	return err
}

// Worker settings.
const (
	scoreMaxAttempts = 6
	scoreBaseBackoff = 30 * time.Second
	scoreMaxBackoff  = time.Hour
	scoreLease       = 2 * time.Minute
	workerPoll       = 10 * time.Second
	sweepEvery       = 10 * time.Minute
)

// Run publishes queued grades until ctx ends, and sweeps expired
// single-use records every sweepEvery.
func (s *Service) Run(ctx context.Context) {
	var lastSweep time.Time
	for {
		if s.now().Sub(lastSweep) >= sweepEvery {
			if n, err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("lti sweep failed", "err", err)
			} else if n > 0 {
				s.log.Debug("expired lti records removed", "count", n)
			}
			lastSweep = s.now()
		}
		for {
			worked, err := s.RunOnce(ctx)
			if err != nil && ctx.Err() == nil {
				s.log.Warn("lti score queue error", "err", err)
			}
			if !worked || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-time.After(workerPoll):
		}
	}
}

// RunOnce claims and publishes one due grade; it reports whether there
// was one.
func (s *Service) RunOnce(ctx context.Context) (bool, error) {
	now := s.now()
	if _, err := s.store.ReleaseExpiredLeases(ctx, now); err != nil {
		return false, err
	}
	job, err := s.store.ClaimJob(ctx, JobKind, now, now.Add(scoreLease))
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	err = s.publish(ctx, job)
	if err != nil {
		s.log.Info("lti score publication failed", "job", job.ID, "attempt", job.Attempts, "err", err)
	}
	done := s.now()
	var perm *permanentError
	var status, msg string
	retryAt := done
	switch {
	case err == nil:
		status = domain.JobDone
	case errors.As(err, &perm) || job.Attempts >= scoreMaxAttempts:
		status, msg = domain.JobFailed, spanishOf(err)
	default:
		status, msg = domain.JobPending, spanishOf(err)
		retryAt = done.Add(backoff(job.Attempts))
	}
	err = s.store.FinishJob(ctx, job.ID, job.Attempts, status, msg, retryAt, done)
	if errors.Is(err, domain.ErrConflict) {
		return true, nil // claimed again after our lease ended: theirs now
	}
	return true, err
}

// spanishOf is the message a failure shows the tutor.
func spanishOf(err error) string {
	var perm *permanentError
	var tr *transientError
	switch {
	case errors.As(err, &perm):
		return perm.msg
	case errors.As(err, &tr):
		return tr.msg
	}
	return "Error interno al enviar la nota; vea el registro del servidor."
}

func backoff(attempt int) time.Duration {
	d := scoreBaseBackoff << min(attempt-1, 16)
	if d > scoreMaxBackoff || d <= 0 {
		d = scoreMaxBackoff
	}
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
