package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

const goodPassword = "clave-segura-123"

// newTestService is a sign-in service on a fresh SQLite store whose
// password checks are counted.
func newTestService(t *testing.T) (*Service, *atomic.Int64) {
	t.Helper()
	st := sqlitetest.Open(t)
	s := NewService(st, NewSessions(st, time.Hour, 4*time.Hour), nil)
	s.Configure(Options{Log: slog.New(slog.NewTextHandler(t.Output(), nil))})
	checks := &atomic.Int64{}
	verify := s.verify
	s.verify = func(hash, password string) (bool, error) {
		checks.Add(1)
		return verify(hash, password)
	}
	return s, checks
}

func errorCode(err error) string {
	var ue *domain.UserError
	if errors.As(err, &ue) {
		return ue.Code
	}
	if err == nil {
		return "ok"
	}
	return err.Error()
}

// loginBurst runs the logins at once and counts the answers by code.
func loginBurst(s *Service, n int, login func(i int) (email, password, ip string)) map[string]int {
	var mu sync.Mutex
	codes := map[string]int{}
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			email, password, ip := login(i)
			<-start
			_, err := s.LoginPassword(context.Background(), email, password, ip)
			mu.Lock()
			codes[errorCode(err)]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return codes
}

func TestMicrosoftOnlyAccountRefusesEveryPassword(t *testing.T) {
	s, checks := newTestService(t)
	ctx := context.Background()
	u := domain.User{ID: domain.NewID(), Mail: "ms@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: time.Now().UTC()}
	if err := s.store.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	// Not even the dummy hash's own password opens an account without one.
	if _, err := s.LoginPassword(ctx, u.Mail, "not-a-real-password", "192.0.2.9"); errorCode(err) != CodeInvalidCredentials {
		t.Fatalf("Microsoft-only account: %v", err)
	}
	// Nothing to check: it costs no hash (S3-08), only the time of one.
	if checks.Load() != 0 {
		t.Fatalf("%d password checks, want 0", checks.Load())
	}
}

func TestPasswordChecksAreBoundedAndRespectTheContext(t *testing.T) {
	s, _ := newTestService(t)
	slots := cap(s.hashing.slots)
	entered := make(chan struct{})
	gate := make(chan struct{})
	s.verify = func(string, string) (bool, error) {
		entered <- struct{}{}
		<-gate
		return false, nil
	}
	// Accounts with a password: only they take a hashing slot.
	for i := range slots {
		u := domain.User{ID: domain.NewID(), Mail: fmt.Sprintf("u%d@utpl.edu.ec", i), Role: domain.RoleStudent, CreatedAt: time.Now()}
		if err := s.store.CreateUser(context.Background(), u); err != nil {
			t.Fatal(err)
		}
		if err := s.store.SetPasswordHash(context.Background(), u.ID, dummyHash); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, slots)
	for i := range slots {
		wg.Go(func() {
			_, err := s.LoginPassword(context.Background(), fmt.Sprintf("u%d@utpl.edu.ec", i), "mala-clave", fmt.Sprintf("10.0.1.%d", i))
			errs <- err
		})
	}
	for range slots {
		<-entered
	}
	// Every slot is taken: a request that ends while waiting gets a busy
	// answer, is not checked, and is not counted against anyone.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.LoginPassword(ctx, "espera@utpl.edu.ec", "mala-clave", "10.0.2.1")
	if errorCode(err) != CodeServerBusy || !errors.Is(err, domain.ErrTooManyRequests) {
		t.Fatalf("waiting request whose context ended: %v", err)
	}
	for _, key := range []string{"mail:espera@utpl.edu.ec", "ip:10.0.2.1"} {
		if c, err := s.store.GetCounter(context.Background(), key, time.Now()); err != nil || c.Count != 0 {
			t.Fatalf("the abandoned attempt was counted against %s: %+v (err %v)", key, c, err)
		}
	}
	close(gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		if errorCode(err) != CodeInvalidCredentials {
			t.Fatalf("checked attempt: %v", err)
		}
	}
}
