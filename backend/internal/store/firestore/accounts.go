package firestore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// oneTimeTokens/{hash}: a password reset or a sign-in waiting for its
// second factor. Using one reads it in a transaction and writes usedAt
// only if it is still unset, so of racing uses one commits and the others
// run again and find it used.

func tokenFields(t domain.OneTimeToken) map[string]any {
	return map[string]any{
		"kind":      string(t.Kind),
		"userId":    t.UserID,
		"issuedBy":  t.IssuedBy,
		"createdAt": ts(t.CreatedAt),
		"expiresAt": ts(t.ExpiresAt),
		"usedAt":    tsPtr(t.UsedAt),
	}
}

func tokenFrom(d doc) (domain.OneTimeToken, error) {
	f := d.data
	return domain.OneTimeToken{
		Hash:      d.ref.ID,
		Kind:      domain.TokenKind(f.str("kind")),
		UserID:    f.str("userId"),
		IssuedBy:  f.str("issuedBy"),
		CreatedAt: f.time("createdAt"),
		ExpiresAt: f.time("expiresAt"),
		UsedAt:    f.timePtr("usedAt"),
	}, nil
}

func (s *Store) CreateToken(ctx context.Context, tok domain.OneTimeToken) error {
	return s.write(ctx, func(t *txn) error {
		ref := s.ref(colTokens, tok.Hash)
		d, err := t.get(ctx, ref)
		if err != nil {
			return err
		}
		if d.exists {
			return fmt.Errorf("token: %w", domain.ErrConflict)
		}
		t.create(ref, tokenFields(tok))
		return nil
	})
}

func (s *Store) GetToken(ctx context.Context, hash string) (domain.OneTimeToken, error) {
	return getOne(ctx, s.read(), s.ref(colTokens, hash), tokenFrom)
}

func (s *Store) UseToken(ctx context.Context, hash string, at time.Time) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.existing(ctx, s.ref(colTokens, hash), "token")
		if err != nil {
			return err
		}
		if d.data.time("usedAt") != (time.Time{}) {
			return fmt.Errorf("token used: %w", domain.ErrConflict)
		}
		t.update(d, map[string]any{"usedAt": ts(at)})
		return nil
	})
}

// DeleteUserTokens queries the user's tokens (a user has a few) and
// filters the kind in memory, so no composite index is needed.
func (s *Store) DeleteUserTokens(ctx context.Context, userID string, kind domain.TokenKind) error {
	return s.write(ctx, func(t *txn) error {
		docs, err := t.query(ctx, collection(colTokens).whereEq("userId", userID))
		if err != nil {
			return err
		}
		for _, d := range docs {
			if d.data.str("kind") == string(kind) {
				t.delete(d.ref)
			}
		}
		return nil
	})
}

func (s *Store) DeleteExpiredTokens(ctx context.Context, now time.Time) (int64, error) {
	return s.deleteExpired(ctx, collection(colTokens).with(cond{"expiresAt", "<=", now}).take(expiredBatch))
}

// deleteExpired deletes what the queries select (each already bounded by
// .take(expiredBatch)). Every sweep of expired documents (tokens,
// sessions, counters, LTI nonces) goes through it.
func (s *Store) deleteExpired(ctx context.Context, qs ...query) (int64, error) {
	return s.sweep(ctx, func(t *txn, d doc) { t.delete(d.ref) }, qs...)
}

// sweep applies change to what the queries select, one transaction per
// round, until a round finds fewer than expiredBatch documents: a change
// must take the document out of the queries' selection, or the sweep
// would find it again.
func (s *Store) sweep(ctx context.Context, change func(*txn, doc), qs ...query) (int64, error) {
	var total int64
	for {
		var n int
		err := s.write(ctx, func(t *txn) error {
			n = 0 // a transaction that runs again starts the count again
			docs, err := queryAll(ctx, t, qs)
			if err != nil {
				return err
			}
			for _, d := range docs {
				change(t, d)
			}
			n = len(docs)
			return nil
		})
		total += int64(n)
		if err != nil || n < expiredBatch {
			return total, err
		}
	}
}

// mfa/{userId}: the TOTP secret, the last time step accepted, and the
// recovery codes as a list of {hash, usedAt}. Every change reads the
// document in its transaction, so a step or a code is accepted once.

func mfaFields(m domain.MFA) map[string]any {
	codes := make([]any, 0, len(m.RecoveryCodes))
	for _, c := range m.RecoveryCodes {
		codes = append(codes, map[string]any{"hash": c.Hash, "usedAt": tsPtr(c.UsedAt)})
	}
	return map[string]any{
		"secret":        m.Secret,
		"enabledAt":     tsPtr(m.EnabledAt),
		"lastStep":      m.LastStep,
		"recoveryCodes": codes,
	}
}

func mfaFrom(d doc) (domain.MFA, error) {
	f := d.data
	m := domain.MFA{UserID: d.ref.ID, Secret: f.str("secret"), EnabledAt: f.timePtr("enabledAt"), LastStep: f.int("lastStep")}
	for _, c := range f.list("recoveryCodes") {
		m.RecoveryCodes = append(m.RecoveryCodes, domain.RecoveryCode{Hash: c.str("hash"), UsedAt: c.timePtr("usedAt")})
	}
	slices.SortFunc(m.RecoveryCodes, func(a, b domain.RecoveryCode) int { return strings.Compare(a.Hash, b.Hash) })
	return m, nil
}

func (s *Store) GetMFA(ctx context.Context, userID string) (domain.MFA, error) {
	return getOne(ctx, s.read(), s.ref(colMFA, userID), mfaFrom)
}

func (s *Store) PutMFA(ctx context.Context, m domain.MFA) error {
	return s.write(ctx, func(t *txn) error {
		t.set(s.ref(colMFA, m.UserID), mfaFields(m))
		return nil
	})
}

func (s *Store) DeleteMFA(ctx context.Context, userID string) error {
	return s.write(ctx, func(t *txn) error {
		t.delete(s.ref(colMFA, userID))
		return nil
	})
}

func (s *Store) UseTOTPStep(ctx context.Context, userID string, step int64) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.existing(ctx, s.ref(colMFA, userID), "mfa of "+userID)
		if err != nil {
			return err
		}
		if d.data.int("lastStep") >= step {
			return fmt.Errorf("totp step %d already used: %w", step, domain.ErrConflict)
		}
		t.update(d, map[string]any{"lastStep": step})
		return nil
	})
}

func (s *Store) UseRecoveryCode(ctx context.Context, userID, hash string, at time.Time) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.existing(ctx, s.ref(colMFA, userID), "mfa of "+userID)
		if err != nil {
			return err
		}
		m, _ := mfaFrom(d)
		for i, c := range m.RecoveryCodes {
			if c.Hash == hash && c.UsedAt == nil {
				m.RecoveryCodes[i].UsedAt = &at
				t.update(d, map[string]any{"recoveryCodes": mfaFields(m)["recoveryCodes"]})
				return nil
			}
		}
		return fmt.Errorf("recovery code: %w", domain.ErrNotFound)
	})
}
