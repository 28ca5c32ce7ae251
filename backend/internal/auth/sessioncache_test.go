package auth

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
)

// A resolved session is reused for a second; a revocation on this instance
// takes effect at once, one elsewhere (another instance, a terminal
// command) within the cache's second.
func TestSessionCache(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u := domain.User{ID: "u1", Mail: "a@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: time.Now()}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	m := NewSessions(st, time.Hour, 4*time.Hour)
	m.now = func() time.Time { return now }

	elsewhere, _ := m.Create(ctx, u.ID, "", "")
	if _, err := m.Resolve(ctx, elsewhere); err != nil {
		t.Fatal(err)
	}
	// Another instance signs the session out: the store forgets it.
	if err := st.DeleteSession(ctx, hashToken(elsewhere)); err != nil {
		t.Fatal(err)
	}
	now = now.Add(500 * time.Millisecond)
	if _, err := m.Resolve(ctx, elsewhere); err != nil {
		t.Fatalf("within the cache's second the session still resolves from memory: %v", err)
	}
	now = now.Add(sessionCacheTTL)
	if _, err := m.Resolve(ctx, elsewhere); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("a session revoked elsewhere still resolves after %s: %v", sessionCacheTTL, err)
	}

	here, _ := m.Create(ctx, u.ID, "", "")
	if _, err := m.Resolve(ctx, here); err != nil {
		t.Fatal(err)
	}
	if err := m.Revoke(ctx, here); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Resolve(ctx, here); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("a session revoked on this instance resolves from the cache: %v", err)
	}

	// The timeouts are checked on every request, cached or not.
	idle, _ := m.Create(ctx, u.ID, "", "")
	if _, err := m.Resolve(ctx, idle); err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Hour + time.Millisecond)
	if _, err := m.Resolve(ctx, idle); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("idle session: %v", err)
	}
}
