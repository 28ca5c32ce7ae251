package auth

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
)

const goodPassword = "clave-segura-123"

// newTestService is a sign-in service on a fresh SQLite store whose
// password checks are counted.
func newTestService(t *testing.T) (*Service, *atomic.Int64) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "auth.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s := NewService(st, NewSessions(st, time.Hour, 4*time.Hour), nil)
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

func TestParallelWrongPasswordsForOneAccountAreThrottled(t *testing.T) {
	s, checks := newTestService(t)
	if _, err := s.CreateUser(context.Background(), "ana@utpl.edu.ec", goodPassword, domain.RoleStudent, "Ana Pérez"); err != nil {
		t.Fatal(err)
	}
	// 40 guesses at once, each from its own address: only the account's
	// allowance of them may reach the password check.
	codes := loginBurst(s, 40, func(i int) (string, string, string) {
		return "ana@utpl.edu.ec", fmt.Sprintf("intento-%d", i), fmt.Sprintf("10.0.0.%d", i)
	})
	free := s.accounts.Free
	if codes[CodeInvalidCredentials] != free || codes[CodeTooManyAttempts] != 40-free || checks.Load() != int64(free) {
		t.Fatalf("answers %v after %d password checks; want %d refused as incorrect (checked) and %d throttled",
			codes, checks.Load(), free, 40-free)
	}
	// The account is being guessed: even the right password waits now.
	if _, err := s.LoginPassword(context.Background(), "ANA@utpl.edu.ec", goodPassword, "10.1.0.1"); errorCode(err) != CodeTooManyAttempts {
		t.Fatalf("right password during the lock: %v", err)
	}
}

func TestParallelGuessesFromOneAddressAreThrottled(t *testing.T) {
	s, checks := newTestService(t)
	ctx := context.Background()
	if _, err := s.CreateUser(ctx, "ana@utpl.edu.ec", goodPassword, domain.RoleStudent, "Ana Pérez"); err != nil {
		t.Fatal(err)
	}
	checks.Store(0)
	// 60 accounts (unknown ones still cost a password check) from one address.
	codes := loginBurst(s, 60, func(i int) (string, string, string) {
		return fmt.Sprintf("alguien.%d@utpl.edu.ec", i), "mala-clave", "203.0.113.7"
	})
	free := s.addresses.Free
	if codes[CodeInvalidCredentials] != free || codes[CodeTooManyAttempts] != 60-free || checks.Load() != int64(free) {
		t.Fatalf("answers %v after %d password checks; want %d checked and refused, %d throttled",
			codes, checks.Load(), free, 60-free)
	}
	if _, err := s.LoginPassword(ctx, "ana@utpl.edu.ec", goodPassword, "203.0.113.7"); errorCode(err) != CodeTooManyAttempts {
		t.Fatalf("a real account from the throttled address: %v", err)
	}
	if _, err := s.LoginPassword(ctx, "ana@utpl.edu.ec", goodPassword, "198.51.100.1"); err != nil {
		t.Fatalf("the same account from another address: %v", err)
	}
}

func TestSuccessDoesNotCountAgainstTheAddress(t *testing.T) {
	s, _ := newTestService(t)
	ctx := context.Background()
	if _, err := s.CreateUser(ctx, "ana@utpl.edu.ec", goodPassword, domain.RoleStudent, "Ana Pérez"); err != nil {
		t.Fatal(err)
	}
	const ip = "192.0.2.1"
	free := s.addresses.Free
	for i := range free - 1 {
		if _, err := s.LoginPassword(ctx, fmt.Sprintf("x%d@utpl.edu.ec", i), "mala-clave", ip); errorCode(err) != CodeInvalidCredentials {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	for range 3 { // successes give their attempt back
		if _, err := s.LoginPassword(ctx, "ana@utpl.edu.ec", goodPassword, ip); err != nil {
			t.Fatalf("right password within the allowance: %v", err)
		}
	}
	if _, err := s.LoginPassword(ctx, "y@utpl.edu.ec", "mala-clave", ip); errorCode(err) != CodeInvalidCredentials {
		t.Fatalf("last failure of the allowance: %v", err)
	}
	if _, err := s.LoginPassword(ctx, "z@utpl.edu.ec", "mala-clave", ip); errorCode(err) != CodeTooManyAttempts {
		t.Fatalf("over the allowance: %v", err)
	}
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
	if checks.Load() != 1 {
		t.Fatalf("%d password checks, want 1 (same cost as a real account)", checks.Load())
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
	if f := s.accounts.m["mail:espera@utpl.edu.ec"]; f != nil && f.count != 0 {
		t.Fatalf("the abandoned attempt was counted against the account: %+v", f)
	}
	if f := s.addresses.m["ip:10.0.2.1"]; f != nil && f.count != 0 {
		t.Fatalf("the abandoned attempt was counted against the address: %+v", f)
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
