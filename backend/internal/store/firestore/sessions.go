package firestore

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// sessions/{tokenHash}. Every change is a transaction on the session's
// document, so a touch racing a sign-out cannot bring the session back: it
// finds the document gone (or is retried after the delete) and writes
// nothing.

func sessionFields(se domain.Session) map[string]any {
	return map[string]any{
		"id":         se.ID,
		"userId":     se.UserID,
		"createdAt":  ts(se.CreatedAt),
		"lastSeenAt": ts(se.LastSeenAt),
		"expiresAt":  ts(se.ExpiresAt),
		"userAgent":  se.UserAgent,
		"ip":         se.IP,
	}
}

func sessionFrom(d doc) (domain.Session, error) {
	f := d.data
	id, ok := f["id"].(string)
	if !ok {
		// A session stored before sessions had an id: one derived from the
		// document ID (the token's hash) by another hash, which does not
		// reveal it.
		sum := sha256.Sum256([]byte("session-id|" + d.ref.ID))
		id = hex.EncodeToString(sum[:8])
	}
	return domain.Session{
		ID:         id,
		TokenHash:  d.ref.ID,
		UserID:     f.str("userId"),
		CreatedAt:  f.time("createdAt"),
		LastSeenAt: f.time("lastSeenAt"),
		ExpiresAt:  f.time("expiresAt"),
		UserAgent:  f.str("userAgent"),
		IP:         f.str("ip"),
	}, nil
}

// CreateSession stores the session and the user's sign-in in one
// transaction.
func (s *Store) CreateSession(ctx context.Context, se domain.Session) error {
	return s.write(ctx, func(t *txn) error {
		docs, err := t.getAll(ctx, []*firestoreRef{s.ref(colSessions, se.TokenHash), s.ref(colUsers, se.UserID)})
		if err != nil {
			return err
		}
		sess, user := docs[0], docs[1]
		if sess.exists {
			return fmt.Errorf("session: %w", domain.ErrConflict)
		}
		if !user.exists {
			return fmt.Errorf("session of user %s: %w", se.UserID, domain.ErrNotFound)
		}
		t.create(sess.ref, sessionFields(se))
		t.update(user, map[string]any{"lastLoginAt": ts(se.CreatedAt)})
		return nil
	})
}

func (s *Store) GetSession(ctx context.Context, tokenHash string) (domain.Session, error) {
	return getOne(ctx, s.read(), s.ref(colSessions, tokenHash), sessionFrom)
}

func (s *Store) TouchSession(ctx context.Context, tokenHash string, at time.Time) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.get(ctx, s.ref(colSessions, tokenHash))
		if err != nil || !d.exists {
			return err
		}
		t.update(d, map[string]any{"lastSeenAt": ts(at)})
		return nil
	})
}

func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	return s.write(ctx, func(t *txn) error {
		t.delete(s.ref(colSessions, tokenHash))
		return nil
	})
}

// DeleteUserSessions deletes the user's sessions in one transaction: they
// end together.
func (s *Store) DeleteUserSessions(ctx context.Context, userID string) error {
	return s.write(ctx, func(t *txn) error {
		docs, err := t.query(ctx, collection(colSessions).whereEq("userId", userID))
		if err != nil {
			return err
		}
		for _, d := range docs {
			t.delete(d.ref)
		}
		return nil
	})
}

func (s *Store) ListUserSessions(ctx context.Context, userID string) ([]domain.Session, error) {
	docs, err := s.read().query(ctx, collection(colSessions).whereEq("userId", userID))
	if err != nil {
		return nil, err
	}
	out, err := decodeAll(docs, sessionFrom)
	// Newest first, in memory: a user has few sessions, and no composite
	// index is needed.
	slices.SortFunc(out, func(a, b domain.Session) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	return out, err
}

// expiredBatch bounds the documents one sweep transaction changes
// (expired sessions, jobs whose lease ended).
var expiredBatch = 200

func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time, idle time.Duration) (int64, error) {
	return s.deleteExpired(ctx,
		collection(colSessions).with(cond{"expiresAt", "<=", now}).take(expiredBatch),
		collection(colSessions).with(cond{"lastSeenAt", "<=", now.Add(-idle)}).take(expiredBatch))
}
