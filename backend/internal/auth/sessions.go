package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// touchEvery limits how often a session's last-seen time is written: once a
// minute is precise enough for an idle timeout measured in hours. A short
// idle timeout is refreshed more often (touchInterval), or an active
// session would end between two writes.
const touchEvery = time.Minute

// touchInterval is how stale last-seen may get: a minute, or a tenth of
// the idle timeout when that is shorter, so a session ends no more than
// 10% early however short the timeout.
func (m *Sessions) touchInterval() time.Duration { return min(touchEvery, m.idle/10) }

// Sessions issues and resolves server-side sessions. The token is random and
// only its SHA-256 is stored, so a leaked database does not leak sessions.
type Sessions struct {
	store store.Store
	idle  time.Duration
	max   time.Duration
	now   func() time.Time
	cache *sessionCache // nil: off (see CacheResolved)
}

// NewSessions returns a session manager with idle and absolute timeouts.
func NewSessions(s store.Store, idle, max time.Duration) *Sessions {
	return &Sessions{store: s, idle: idle, max: max, now: time.Now}
}

// MaxAge is the absolute lifetime, used for the cookie's Max-Age.
func (m *Sessions) MaxAge() time.Duration { return m.max }

// Create starts a new session for userID and returns its token.
func (m *Sessions) Create(ctx context.Context, userID, userAgent, ip string) (string, error) {
	token, _, err := m.create(ctx, userID, userAgent, ip)
	return token, err
}

func (m *Sessions) create(ctx context.Context, userID, userAgent, ip string) (string, domain.Session, error) {
	token, err := randomToken(32)
	if err != nil {
		return "", domain.Session{}, err
	}
	id, err := randomHex(8)
	if err != nil {
		return "", domain.Session{}, err
	}
	now := m.now().UTC()
	if len(userAgent) > 256 {
		userAgent = userAgent[:256]
	}
	se := domain.Session{
		ID: id, TokenHash: hashToken(token), UserID: userID, CreatedAt: now, LastSeenAt: now,
		ExpiresAt: now.Add(m.max), UserAgent: userAgent, IP: ip,
	}
	if err := m.store.CreateSession(ctx, se); err != nil {
		return "", domain.Session{}, fmt.Errorf("create session: %w", err)
	}
	return token, se, nil
}

// Resolve returns the user of a live session; domain.ErrUnauthenticated when
// the token is unknown, idle too long or past its absolute expiry.
func (m *Sessions) Resolve(ctx context.Context, token string) (domain.User, error) {
	u, _, err := m.ResolveSession(ctx, token)
	return u, err
}

// ResolveSession is Resolve that also returns the session.
func (m *Sessions) ResolveSession(ctx context.Context, token string) (domain.User, domain.Session, error) {
	if token == "" || len(token) > 128 {
		return domain.User{}, domain.Session{}, domain.ErrUnauthenticated
	}
	h := hashToken(token)
	now := m.now().UTC()
	if c, ok := m.cache.get(h, now); ok {
		return m.check(ctx, h, c.se, c.user, now)
	}
	se, err := m.store.GetSession(ctx, h)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.User{}, domain.Session{}, domain.ErrUnauthenticated
	}
	if err != nil {
		return domain.User{}, domain.Session{}, err
	}
	u, err := m.store.GetUser(ctx, se.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.User{}, domain.Session{}, domain.ErrUnauthenticated
	}
	if err != nil {
		return domain.User{}, domain.Session{}, err
	}
	m.cache.put(h, cachedSession{se: se, user: u, resolved: now})
	return m.check(ctx, h, se, u, now)
}

// check applies the timeouts to a session read from the store or from the
// cache, and refreshes its last-seen time when due.
func (m *Sessions) check(ctx context.Context, h string, se domain.Session, u domain.User, now time.Time) (domain.User, domain.Session, error) {
	if !m.live(se, now) {
		m.cache.forget(h)
		_ = m.store.DeleteSession(ctx, h)
		return domain.User{}, domain.Session{}, domain.ErrUnauthenticated
	}
	if now.Sub(se.LastSeenAt) >= m.touchInterval() {
		if err := m.store.TouchSession(ctx, h, now); err != nil {
			return domain.User{}, domain.Session{}, err
		}
		se.LastSeenAt = now
		m.cache.touched(h, now)
	}
	return u, se, nil
}

// CacheResolved keeps resolved sessions in memory for a second (see
// sessionCacheTTL). Only for a store this process alone serves (SQLite):
// with several instances a session ended on another must end here at once.
func (m *Sessions) CacheResolved() { m.cache = newSessionCache() }

// forgetUser drops what the cache holds of userID's sessions, after they
// were ended or the account changed.
func (m *Sessions) forgetUser(userID string) { m.cache.forgetUser(userID) }

// live reports whether se is neither idle too long nor past its
// absolute expiry.
func (m *Sessions) live(se domain.Session, now time.Time) bool {
	return now.Before(se.ExpiresAt) && now.Sub(se.LastSeenAt) < m.idle
}

// List returns the user's live sessions, newest first.
func (m *Sessions) List(ctx context.Context, userID string) ([]domain.Session, error) {
	all, err := m.store.ListUserSessions(ctx, userID)
	if err != nil {
		return nil, err
	}
	now := m.now().UTC()
	out := all[:0]
	for _, se := range all {
		if m.live(se, now) {
			out = append(out, se)
		}
	}
	return out, nil
}

// RevokeByID ends the user's session with that id: domain.ErrNotFound
// when the user has none (another user's session is not found either).
func (m *Sessions) RevokeByID(ctx context.Context, userID, id string) error {
	defer m.forgetUser(userID)
	return m.store.InTx(ctx, func(tx store.Store) error {
		all, err := tx.ListUserSessions(ctx, userID)
		if err != nil {
			return err
		}
		for _, se := range all {
			if se.ID == id && id != "" {
				return tx.DeleteSession(ctx, se.TokenHash)
			}
		}
		return domain.ErrNotFound
	})
}

// RevokeOthers ends every session of the user except the one with id
// keep, in one transaction, and returns how many it ended.
func (m *Sessions) RevokeOthers(ctx context.Context, userID, keep string) (int, error) {
	defer m.forgetUser(userID)
	var n int
	err := m.store.InTx(ctx, func(tx store.Store) error {
		var err error
		n, err = revokeOthers(ctx, tx, userID, keep)
		return err
	})
	return n, err
}

// revokeOthers deletes the user's sessions but keep through tx.
func revokeOthers(ctx context.Context, tx store.Store, userID, keep string) (int, error) {
	all, err := tx.ListUserSessions(ctx, userID)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, se := range all {
		if se.ID == keep && keep != "" {
			continue
		}
		if err := tx.DeleteSession(ctx, se.TokenHash); err != nil {
			return 0, err
		}
		n++
	}
	return n, nil
}

// Revoke ends the session of token (no error when it does not exist).
func (m *Sessions) Revoke(ctx context.Context, token string) error {
	if token == "" {
		return nil
	}
	h := hashToken(token)
	m.cache.forget(h)
	return m.store.DeleteSession(ctx, h)
}

// Sweep deletes expired sessions; the server calls it periodically.
func (m *Sessions) Sweep(ctx context.Context) (int64, error) {
	return m.store.DeleteExpiredSessions(ctx, m.now().UTC(), m.idle)
}

// randomToken returns n random bytes, base64url-encoded.
func randomToken(n int) (string, error) {
	raw := make([]byte, n)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

func randomHex(n int) (string, error) {
	raw := make([]byte, n)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	return hex.EncodeToString(raw), nil
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
