package auth

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

// Without the cache (PostgreSQL, Firestore: several instances) a session
// ended elsewhere is refused at once. With it (SQLite, one process) a
// resolved session is reused for a second, and whatever this process ends
// is forgotten at once.
func TestSessionCache(t *testing.T) {
	ctx := context.Background()
	st := sqlitetest.Open(t)
	u := domain.User{ID: "u1", Mail: "a@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: time.Now()}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	newSessions := func(cache bool) *Sessions {
		m := NewSessions(st, time.Hour, 4*time.Hour)
		m.now = func() time.Time { return now }
		if cache {
			m.CacheResolved()
		}
		return m
	}
	resolves := func(m *Sessions, token string) bool {
		t.Helper()
		_, err := m.Resolve(ctx, token)
		if err != nil && !errors.Is(err, domain.ErrUnauthenticated) {
			t.Fatal(err)
		}
		return err == nil
	}
	endElsewhere := func(token string) {
		t.Helper()
		if err := st.DeleteSession(ctx, hashToken(token)); err != nil {
			t.Fatal(err)
		}
	}

	plain := newSessions(false)
	token, err := plain.Create(ctx, u.ID, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if !resolves(plain, token) {
		t.Fatal("a new session does not resolve")
	}
	endElsewhere(token)
	if resolves(plain, token) {
		t.Fatal("without the cache, a session ended elsewhere still resolves")
	}

	cached := newSessions(true)
	token, _ = cached.Create(ctx, u.ID, "", "")
	if !resolves(cached, token) {
		t.Fatal("a new session does not resolve")
	}
	endElsewhere(token)
	now = now.Add(500 * time.Millisecond)
	if !resolves(cached, token) {
		t.Fatal("within the cache's second the session should resolve from memory")
	}
	now = now.Add(sessionCacheTTL)
	if resolves(cached, token) {
		t.Fatalf("a session ended elsewhere still resolves after %s", sessionCacheTTL)
	}

	for name, end := range map[string]func(token string) error{
		"Revoke": func(token string) error { return cached.Revoke(ctx, token) },
		"RevokeOthers": func(string) error {
			_, err := cached.RevokeOthers(ctx, u.ID, "")
			return err
		},
	} {
		token, _ := cached.Create(ctx, u.ID, "", "")
		if !resolves(cached, token) {
			t.Fatal("a new session does not resolve")
		}
		if err := end(token); err != nil {
			t.Fatal(err)
		}
		if resolves(cached, token) {
			t.Fatalf("after %s on this process the session resolves from the cache", name)
		}
	}

	// The timeouts apply to cached sessions too.
	token, _ = cached.Create(ctx, u.ID, "", "")
	if !resolves(cached, token) {
		t.Fatal("a new session does not resolve")
	}
	now = now.Add(5 * time.Hour)
	if resolves(cached, token) {
		t.Fatal("a session past its absolute expiry resolves from the cache")
	}
}
