package exams

import (
	"context"
	"fmt"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// Limits bound what one user can store through rehearsals, so that no
// student can exhaust the storage or the database the others share.
// docs/security.md lists them with the variables that set them.
type Limits struct {
	// RecordingBytes caps one recording (a take): 15 minutes of Opus is
	// about 4 MB.
	RecordingBytes int64
	// StudentBytes caps the audio of all of a user's recordings that are
	// not deleted; deleting a recording frees its share.
	StudentBytes int64
	// TakesPerPhase caps the takes of one phase of an Entrenamiento
	// attempt (a reload, a lost connection or a retry starts a new take);
	// MockTakesPerPhase of a Simulacro, where one take is the rule.
	TakesPerPhase     int
	MockTakesPerPhase int
	// AttemptsPerDay caps the attempts a user starts in 24 hours.
	AttemptsPerDay int
}

// DefaultLimits are the limits unless the configuration sets others.
func DefaultLimits() Limits {
	return Limits{
		RecordingBytes:    64 << 20,
		StudentBytes:      500 << 20,
		TakesPerPhase:     5,
		MockTakesPerPhase: 2,
		AttemptsPerDay:    20,
	}
}

// SetLimits replaces the limits; a zero field keeps its default.
func (s *Service) SetLimits(l Limits) {
	d := DefaultLimits()
	if l.RecordingBytes <= 0 {
		l.RecordingBytes = d.RecordingBytes
	}
	if l.StudentBytes <= 0 {
		l.StudentBytes = d.StudentBytes
	}
	if l.TakesPerPhase <= 0 {
		l.TakesPerPhase = d.TakesPerPhase
	}
	if l.MockTakesPerPhase <= 0 {
		l.MockTakesPerPhase = d.MockTakesPerPhase
	}
	if l.AttemptsPerDay <= 0 {
		l.AttemptsPerDay = d.AttemptsPerDay
	}
	s.limits = l
}

// Limits returns the limits in force.
func (s *Service) Limits() Limits { return s.limits }

// attemptWindow is the period AttemptsPerDay counts over.
const attemptWindow = 24 * time.Hour

// checkAttemptsPerDay refuses a new attempt when the user started
// AttemptsPerDay of them in the last 24 hours, saying when the next one is
// possible. Only one attempt can be in progress, so two starts at once
// cannot both pass: the second finds the first in progress.
func (s *Service) checkAttemptsPerDay(ctx context.Context, u domain.User, now time.Time) error {
	n := s.limits.AttemptsPerDay
	recent, err := s.store.ListAttempts(ctx, store.AttemptFilter{StudentID: u.ID, Limit: n})
	if err != nil || len(recent) < n {
		return err
	}
	oldest := recent[n-1].CreatedAt // the n-th newest
	if !oldest.After(now.Add(-attemptWindow)) {
		return nil
	}
	wait := oldest.Add(attemptWindow).Sub(now)
	return &domain.UserError{Kind: domain.ErrTooManyRequests, Code: "too_many_attempts",
		Message: fmt.Sprintf("Ya inició %d intentos en las últimas 24 horas, el máximo permitido. Podrá iniciar otro en %s.", n, waitText(wait)),
		Details: map[string]int{"retryAfterSeconds": int(wait.Round(time.Second) / time.Second)}}
}

// waitText says a wait in Spanish, in hours or minutes, rounded up.
func waitText(d time.Duration) string {
	if d > time.Hour {
		h := int((d + time.Hour - 1) / time.Hour)
		return fmt.Sprintf("%d horas", h)
	}
	m := max(int((d+time.Minute-1)/time.Minute), 1)
	if m == 1 {
		return "1 minuto"
	}
	return fmt.Sprintf("%d minutos", m)
}

// takeLimit is how many takes a phase of a may have.
func (s *Service) takeLimit(a domain.Attempt) int {
	if a.Mode == domain.ModeMock {
		return s.limits.MockTakesPerPhase
	}
	return s.limits.TakesPerPhase
}

func tooManyTakes(a domain.Attempt, n int) error {
	mode := "entrenamiento"
	if a.Mode == domain.ModeMock {
		mode = "simulacro"
	}
	return domain.Conflict("too_many_takes", fmt.Sprintf("Esta fase ya tiene %d grabaciones, el máximo en %s: no se pueden agregar más.", n, mode))
}

func megabytes(b int64) int64 { return (b + 1<<20 - 1) >> 20 }

func recordingTooLarge(limit int64) error {
	return domain.Conflict("recording_too_large", fmt.Sprintf("La grabación supera el tamaño máximo de %d MB.", megabytes(limit)))
}

func storageQuotaExceeded(limit int64) error {
	return domain.Conflict("storage_quota_exceeded", fmt.Sprintf(
		"Sus grabaciones ya ocupan el espacio permitido (%d MB). Elimine grabaciones de intentos anteriores en su historial para seguir grabando.", megabytes(limit)))
}
