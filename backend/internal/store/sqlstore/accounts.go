package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

const tokenColumns = `token_hash, kind, user_id, issued_by, created_at, expires_at, used_at`

func (s *DB) CreateToken(ctx context.Context, t domain.OneTimeToken) error {
	_, err := s.exec(ctx, `INSERT INTO one_time_tokens (`+tokenColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		t.Hash, string(t.Kind), t.UserID, t.IssuedBy, ms(t.CreatedAt), ms(t.ExpiresAt), nullMS(t.UsedAt))
	return err
}

func (s *DB) GetToken(ctx context.Context, hash string) (domain.OneTimeToken, error) {
	var t domain.OneTimeToken
	var kind string
	var created, expires int64
	var used sql.NullInt64
	err := s.queryRow(ctx, `SELECT `+tokenColumns+` FROM one_time_tokens WHERE token_hash = ?`, hash).
		Scan(&t.Hash, &kind, &t.UserID, &t.IssuedBy, &created, &expires, &used)
	if err != nil {
		return t, s.mapErr(err)
	}
	t.Kind, t.CreatedAt, t.ExpiresAt, t.UsedAt = domain.TokenKind(kind), fromMS(created), fromMS(expires), fromNullMS(used)
	return t, nil
}

// UseToken is one conditional UPDATE, so of racing uses the database lets
// exactly one change the row.
func (s *DB) UseToken(ctx context.Context, hash string, at time.Time) error {
	res, err := s.exec(ctx, `UPDATE one_time_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL`, ms(at), hash)
	if err := s.expectOne(res, err); !errors.Is(err, domain.ErrNotFound) {
		return err
	}
	if _, err := s.GetToken(ctx, hash); err != nil {
		return err
	}
	return domain.ErrConflict
}

func (s *DB) DeleteUserTokens(ctx context.Context, userID string, kind domain.TokenKind) error {
	_, err := s.exec(ctx, `DELETE FROM one_time_tokens WHERE user_id = ? AND kind = ?`, userID, string(kind))
	return err
}

func (s *DB) DeleteExpiredTokens(ctx context.Context, now time.Time) (int64, error) {
	return s.execCount(ctx, `DELETE FROM one_time_tokens WHERE expires_at <= ?`, ms(now))
}

func (s *DB) GetMFA(ctx context.Context, userID string) (domain.MFA, error) {
	m := domain.MFA{UserID: userID}
	var enabled sql.NullInt64
	err := s.queryRow(ctx, `SELECT totp_secret, enabled_at, last_step FROM user_mfa WHERE user_id = ?`, userID).
		Scan(&m.Secret, &enabled, &m.LastStep)
	if err != nil {
		return m, s.mapErr(err)
	}
	m.EnabledAt = fromNullMS(enabled)
	m.RecoveryCodes, err = queryAll(ctx, s, func(r scanner) (domain.RecoveryCode, error) {
		var c domain.RecoveryCode
		var used sql.NullInt64
		err := r.Scan(&c.Hash, &used)
		c.UsedAt = fromNullMS(used)
		return c, err
	}, `SELECT code_hash, used_at FROM mfa_recovery_codes WHERE user_id = ? ORDER BY code_hash`, userID)
	return m, err
}

func (s *DB) PutMFA(ctx context.Context, m domain.MFA) error {
	return s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		if err := tx.DeleteMFA(ctx, m.UserID); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `INSERT INTO user_mfa (user_id, totp_secret, enabled_at, last_step) VALUES (?, ?, ?, ?)`,
			m.UserID, m.Secret, nullMS(m.EnabledAt), m.LastStep); err != nil {
			return err
		}
		for _, c := range m.RecoveryCodes {
			if _, err := tx.exec(ctx, `INSERT INTO mfa_recovery_codes (user_id, code_hash, used_at) VALUES (?, ?, ?)`,
				m.UserID, c.Hash, nullMS(c.UsedAt)); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *DB) DeleteMFA(ctx context.Context, userID string) error {
	return s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		if _, err := tx.exec(ctx, `DELETE FROM mfa_recovery_codes WHERE user_id = ?`, userID); err != nil {
			return err
		}
		_, err := tx.exec(ctx, `DELETE FROM user_mfa WHERE user_id = ?`, userID)
		return err
	})
}

func (s *DB) UseTOTPStep(ctx context.Context, userID string, step int64) error {
	res, err := s.exec(ctx, `UPDATE user_mfa SET last_step = ? WHERE user_id = ? AND last_step < ?`, step, userID, step)
	if err := s.expectOne(res, err); !errors.Is(err, domain.ErrNotFound) {
		return err
	}
	var one int
	if err := s.queryRow(ctx, `SELECT 1 FROM user_mfa WHERE user_id = ?`, userID).Scan(&one); err != nil {
		return s.mapErr(err)
	}
	return domain.ErrConflict
}

func (s *DB) UseRecoveryCode(ctx context.Context, userID, hash string, at time.Time) error {
	res, err := s.exec(ctx, `UPDATE mfa_recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL`,
		ms(at), userID, hash)
	return s.expectOne(res, err)
}
