package auth

import (
	"context"
	"errors"
	"log/slog"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// What a signed-in user may do to their own account: see whether it has a
// local password, change it, and see and end their sessions.

// HasPassword reports whether u signs in with a local password (a
// Microsoft-only profile has none).
func (s *Service) HasPassword(ctx context.Context, u domain.User) (bool, error) {
	h, err := s.store.PasswordHash(ctx, u.ID)
	return h != "", err
}

var errWrongPassword = domain.Invalid("wrong_password", "La contraseña actual no es correcta.")

// checkOwnPassword verifies a password u typed to prove who they are,
// counted by limitPasswordCheck.
func (s *Service) checkOwnPassword(ctx context.Context, u domain.User, password string) error {
	if password == "" {
		return domain.Invalid("missing_password", "Escriba su contraseña actual.")
	}
	hash, err := s.store.PasswordHash(ctx, u.ID)
	if err != nil {
		return err
	}
	if hash == "" {
		return domain.Conflict("no_local_password",
			"Su cuenta ingresa con la cuenta institucional (Microsoft) y no tiene una contraseña en el simulador.")
	}
	if err := s.check(ctx, limitPasswordCheck, u.ID); err != nil {
		return err
	}
	release, err := s.hashingSlot(ctx)
	if err != nil {
		return err
	}
	defer release()
	ok, err := s.checkPassword(ctx, hash, password)
	if err != nil {
		return err
	}
	if !ok {
		return errWrongPassword
	}
	return nil
}

// ChangePassword gives u a new password after checking the current one.
// Every other session of u ends (whoever else knew the old password is
// signed out); the session keep, the one making the change, stays. It
// returns how many sessions ended.
func (s *Service) ChangePassword(ctx context.Context, u domain.User, current, next, keep string) (int, error) {
	if next == "" {
		return 0, domain.Invalid("missing_password", "Escriba la nueva contraseña.")
	}
	// The new password's rules first: they cost no attempt.
	if err := CheckNewPassword(next, u.Mail); err != nil {
		return 0, err
	}
	if NormalizePassword(next) == NormalizePassword(current) {
		return 0, domain.Invalid("same_password", "La nueva contraseña debe ser distinta de la actual.")
	}
	if err := s.checkOwnPassword(ctx, u, current); err != nil {
		if errors.Is(err, errWrongPassword) {
			audit.Info(ctx, s.log, "auth.password.change_failure", slog.String("reason", "wrong_password"))
		}
		return 0, err
	}
	release, err := s.hashingSlot(ctx)
	if err != nil {
		return 0, err
	}
	hash, err := HashPassword(next)
	release()
	if err != nil {
		return 0, err
	}
	var ended int
	err = s.store.InTx(ctx, func(tx store.Store) error {
		if err := tx.SetPasswordHash(ctx, u.ID, hash); err != nil {
			return err
		}
		if err := tx.DeleteUserTokens(ctx, u.ID, domain.TokenPasswordReset); err != nil {
			return err
		}
		// A sign-in started with the old password and waiting for its
		// code ends too (S3-13).
		if err := tx.DeleteUserTokens(ctx, u.ID, domain.TokenMFALogin); err != nil {
			return err
		}
		ended, err = revokeOthers(ctx, tx, u.ID, keep)
		return err
	})
	s.sessions.forgetUser(u.ID)
	if err != nil {
		return 0, err
	}
	audit.Info(ctx, s.log, "auth.password.change", slog.Int("sessionsEnded", ended))
	return ended, nil
}

// UserSessions lists u's live sessions, newest first.
func (s *Service) UserSessions(ctx context.Context, u domain.User) ([]domain.Session, error) {
	return s.sessions.List(ctx, u.ID)
}

// EndSession ends one of u's sessions by its id; another user's session,
// or one that does not exist, is not found.
func (s *Service) EndSession(ctx context.Context, u domain.User, id string) error {
	if err := s.sessions.RevokeByID(ctx, u.ID, id); err != nil {
		if errors.Is(err, domain.ErrNotFound) {
			return domain.NotFound("session_not_found", "La sesión no existe o ya terminó.")
		}
		return err
	}
	audit.Info(ctx, s.log, "auth.session.revoked", slog.String("scope", "one"), slog.String("targetSessionId", id), slog.Int("count", 1))
	return nil
}

// EndOtherSessions ends every session of u but keep, and returns how many.
func (s *Service) EndOtherSessions(ctx context.Context, u domain.User, keep string) (int, error) {
	n, err := s.sessions.RevokeOthers(ctx, u.ID, keep)
	if err != nil {
		return 0, err
	}
	audit.Info(ctx, s.log, "auth.session.revoked", slog.String("scope", "others"), slog.Int("count", n))
	return n, nil
}

// SweepExpired deletes one-time tokens and counters (sign-in throttling and
// rate limits) whose time is over; the server calls it periodically.
func (s *Service) SweepExpired(ctx context.Context) (int64, error) {
	now := s.now().UTC()
	tokens, err := s.store.DeleteExpiredTokens(ctx, now)
	if err != nil {
		return tokens, err
	}
	counters, err := s.store.DeleteExpiredCounters(ctx, now)
	return tokens + counters, err
}
