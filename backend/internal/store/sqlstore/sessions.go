package sqlstore

import (
	"context"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// CreateSession inserts the session and records the sign-in on the user in
// the same transaction: every way of signing in creates a session, so
// last_login_at cannot miss one.
func (s *DB) CreateSession(ctx context.Context, se domain.Session) error {
	return s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		if _, err := tx.exec(ctx, `INSERT INTO sessions (id, token_hash, user_id, created_at, last_seen_at, expires_at, user_agent, ip) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			se.ID, se.TokenHash, se.UserID, ms(se.CreatedAt), ms(se.LastSeenAt), ms(se.ExpiresAt), se.UserAgent, se.IP); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `UPDATE users SET last_login_at = ? WHERE id = ?`, ms(se.CreatedAt), se.UserID)
		return err
	})
}

const sessionColumns = `id, token_hash, user_id, created_at, last_seen_at, expires_at, user_agent, ip`

func scanSession(r scanner) (domain.Session, error) {
	var se domain.Session
	var created, seen, expires int64
	if err := r.Scan(&se.ID, &se.TokenHash, &se.UserID, &created, &seen, &expires, &se.UserAgent, &se.IP); err != nil {
		return se, err
	}
	se.CreatedAt, se.LastSeenAt, se.ExpiresAt = fromMS(created), fromMS(seen), fromMS(expires)
	return se, nil
}

func (s *DB) GetSession(ctx context.Context, tokenHash string) (domain.Session, error) {
	se, err := scanSession(s.queryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE token_hash = ?`, tokenHash))
	return se, s.mapErr(err)
}

func (s *DB) ListUserSessions(ctx context.Context, userID string) ([]domain.Session, error) {
	return queryAll(ctx, s, scanSession, `SELECT `+sessionColumns+` FROM sessions WHERE user_id = ? ORDER BY created_at DESC, id`, userID)
}

func (s *DB) TouchSession(ctx context.Context, tokenHash string, at time.Time) error {
	_, err := s.exec(ctx, `UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?`, ms(at), tokenHash)
	return err
}

func (s *DB) DeleteSession(ctx context.Context, tokenHash string) error {
	_, err := s.exec(ctx, `DELETE FROM sessions WHERE token_hash = ?`, tokenHash)
	return err
}

func (s *DB) DeleteUserSessions(ctx context.Context, userID string) error {
	_, err := s.exec(ctx, `DELETE FROM sessions WHERE user_id = ?`, userID)
	return err
}

func (s *DB) DeleteExpiredSessions(ctx context.Context, now time.Time, idle time.Duration) (int64, error) {
	return s.execCount(ctx, `DELETE FROM sessions WHERE expires_at <= ? OR last_seen_at <= ?`, ms(now), ms(now.Add(-idle)))
}
