package auth

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// limit is a rate limit kept in the store's counters (store.Counters, the
// same primitive sign-in throttling counts with), so that it holds across
// the server's instances: at most max events per window for one subject (a
// user id, or a client address). The window is fixed: it starts with the
// subject's first event and the count is forgotten when it ends.
type limit struct {
	name   string
	max    int
	window time.Duration
}

var (
	// A password typed to prove who one is (changing it, setting up or
	// turning off the second factor): guessing it must stay slow even
	// from a stolen session.
	limitPasswordCheck = limit{"password_check", 5, 15 * time.Minute}
	// Reset links a tutor issues, and that one student receives.
	limitResetIssue        = limit{"reset_issue", 30, time.Hour}
	limitResetIssueStudent = limit{"reset_issue_student", 5, time.Hour}
	// Attempts to use a reset link, per client address.
	limitResetUse = limit{"reset_use", 20, 15 * time.Minute}
	// TOTP or recovery codes typed by one user (sign-in, enrolment,
	// turning it off): six digits must not be guessable.
	limitTOTP = limit{"totp", 10, 15 * time.Minute}
	// Codes typed in one sign-in waiting for its second factor; past
	// this the sign-in must start again from the password.
	limitMFAAttempt = limit{"mfa_attempt", 5, MFALoginLifetime}
	// Device tokens issued to one account (known_device.go).
	limitDeviceIssue = limit{"device_issue", 20, 24 * time.Hour}
)

// check counts one event of l for subject and refuses it (a Spanish
// message, Retry-After) once the window holds more than l.max.
func (s *Service) check(ctx context.Context, l limit, subject string) error {
	now := s.now().UTC()
	c, err := store.CountInWindow(ctx, s.store, limitKey(l, subject), now, l.window)
	if err != nil {
		return err
	}
	if c.Count <= int64(l.max) {
		return nil
	}
	wait := max(c.ExpiresAt.Sub(now), time.Second)
	audit.Warn(ctx, s.log, "ratelimit.exceeded", slog.String("limit", l.name), slog.Int("retryAfterSeconds", int(wait.Seconds())+1))
	return rateLimited(wait)
}

// limitKey is the counter of l for subject. The prefix keeps rate limits
// apart from the sign-in throttle's keys (throttle.go) in the one table.
func limitKey(l limit, subject string) string { return "limit:" + l.name + ":" + subject }

func rateLimited(wait time.Duration) error {
	msg := "Demasiados intentos. Espere un momento e intente de nuevo."
	if m := int(wait.Round(time.Minute) / time.Minute); m >= 1 {
		msg = fmt.Sprintf("Demasiados intentos. Espere %d minuto(s) e intente de nuevo.", m)
	}
	return &domain.UserError{Kind: domain.ErrTooManyRequests, Code: CodeRateLimited, Message: msg,
		Details: map[string]int{"retryAfterSeconds": int(wait.Seconds()) + 1}}
}
