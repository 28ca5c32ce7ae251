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
	cache *sessionCache
}

// NewSessions returns a session manager with idle and absolute timeouts.
func NewSessions(s store.Store, idle, max time.Duration) *Sessions {
	return &Sessions{store: s, idle: idle, max: max, now: time.Now, cache: newSessionCache()}
}

// MaxAge is the absolute lifetime, used for the cookie's Max-Age.
func (m *Sessions) MaxAge() time.Duration { return m.max }

// Create starts a new session for userID and returns its token.
func (m *Sessions) Create(ctx context.Context, userID, userAgent, ip string) (string, error) {
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	now := m.now().UTC()
	if len(userAgent) > 256 {
		userAgent = userAgent[:256]
	}
	err := m.store.CreateSession(ctx, domain.Session{
		TokenHash: hashToken(token), UserID: userID, CreatedAt: now, LastSeenAt: now,
		ExpiresAt: now.Add(m.max), UserAgent: userAgent, IP: ip,
	})
	if err != nil {
		return "", fmt.Errorf("create session: %w", err)
	}
	return token, nil
}

// Resolve returns the user of a live session; domain.ErrUnauthenticated when
// the token is unknown, idle too long or past its absolute expiry.
func (m *Sessions) Resolve(ctx context.Context, token string) (domain.User, error) {
	if token == "" || len(token) > 128 {
		return domain.User{}, domain.ErrUnauthenticated
	}
	h := hashToken(token)
	now := m.now().UTC()
	if c, ok := m.cache.get(h, now); ok {
		return m.check(ctx, h, c.se, c.user, now, true)
	}
	se, err := m.store.GetSession(ctx, h)
	if errors.Is(err, domain.ErrNotFound) {
		m.cache.forget(h)
		return domain.User{}, domain.ErrUnauthenticated
	}
	if err != nil {
		return domain.User{}, err
	}
	u, err := m.store.GetUser(ctx, se.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.User{}, domain.ErrUnauthenticated
	}
	if err != nil {
		return domain.User{}, err
	}
	m.cache.put(h, cachedSession{se: se, user: u, resolved: now})
	return m.check(ctx, h, se, u, now, false)
}

// check applies the timeouts to a session read from the store or from the
// cache, and refreshes its last-seen time when due.
func (m *Sessions) check(ctx context.Context, h string, se domain.Session, u domain.User, now time.Time, cached bool) (domain.User, error) {
	if !now.Before(se.ExpiresAt) || now.Sub(se.LastSeenAt) >= m.idle {
		m.cache.forget(h)
		_ = m.store.DeleteSession(ctx, h)
		return domain.User{}, domain.ErrUnauthenticated
	}
	if now.Sub(se.LastSeenAt) >= m.touchInterval() {
		if err := m.store.TouchSession(ctx, h, now); err != nil {
			return domain.User{}, err
		}
		m.cache.touched(h, now)
	}
	return u, nil
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

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}
