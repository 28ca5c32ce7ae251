package auth

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

func TestSessionsTimeouts(t *testing.T) {
	ctx := context.Background()
	st := sqlitetest.Open(t)
	u := domain.User{ID: "u1", Mail: "a@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: time.Now()}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	m := NewSessions(st, time.Hour, 4*time.Hour)
	m.now = func() time.Time { return now }

	token, err := m.Create(ctx, u.ID, "ua", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetSession(ctx, token); !errors.Is(err, domain.ErrNotFound) {
		t.Fatal("the raw token is stored; only its hash may be")
	}
	// Activity keeps the session alive past the idle timeout...
	for range 3 {
		now = now.Add(50 * time.Minute)
		if got, err := m.Resolve(ctx, token); err != nil || got.ID != u.ID {
			t.Fatalf("active session: %v %v", got, err)
		}
	}
	// ...but not past the absolute one.
	now = now.Add(71 * time.Minute) // 4h01m after creation
	if _, err := m.Resolve(ctx, token); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("past absolute expiry: %v", err)
	}

	idle, _ := m.Create(ctx, u.ID, "", "")
	now = now.Add(61 * time.Minute)
	if _, err := m.Resolve(ctx, idle); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("idle session: %v", err)
	}
	for _, bad := range []string{"", "nope", string(make([]byte, 500))} {
		if _, err := m.Resolve(ctx, bad); !errors.Is(err, domain.ErrUnauthenticated) {
			t.Fatalf("token %q: %v", bad, err)
		}
	}
	live, _ := m.Create(ctx, u.ID, "", "")
	if err := m.Revoke(ctx, live); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Resolve(ctx, live); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("revoked session: %v", err)
	}
}

// The last-seen time was written at most once a minute, so an idle timeout
// under a minute also ended active sessions: with a 4 s timeout and a
// request every 2 s, the session ended at 4 s.
func TestShortIdleTimeoutKeepsAnActiveSession(t *testing.T) {
	ctx := context.Background()
	st := sqlitetest.Open(t)
	u := domain.User{ID: "u1", Mail: "a@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: time.Now()}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	m := NewSessions(st, 4*time.Second, time.Hour)
	m.now = func() time.Time { return now }
	token, err := m.Create(ctx, u.ID, "ua", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		now = now.Add(2 * time.Second)
		if _, err := m.Resolve(ctx, token); err != nil {
			t.Fatalf("request %d, %v after sign-in with one every 2 s: %v", i+1, 2*time.Second*time.Duration(i+1), err)
		}
	}
	now = now.Add(4500 * time.Millisecond)
	if _, err := m.Resolve(ctx, token); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("idle for 4.5 s: %v", err)
	}
}
