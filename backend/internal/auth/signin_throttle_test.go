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

// throttleFixture is a sign-in service on SQLite whose password check is a
// string comparison, so a test can sign in thousands of times: the
// throttle is under test here, not argon2id (service_test.go checks the
// real hashes). Its throttles share a clock the test moves.
type throttleFixture struct {
	t      *testing.T
	s      *Service
	now    time.Time
	checks atomic.Int64 // password checks made
	mu     sync.Mutex
	active int // checks running now
	peak   int // most checks running at once
}

func newThrottleFixture(t *testing.T) *throttleFixture {
	t.Helper()
	st := sqlitetest.Open(t)
	f := &throttleFixture{t: t, now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)}
	f.s = NewService(st, NewSessions(st, time.Hour, 4*time.Hour), nil)
	f.s.Configure(Options{Log: slog.New(slog.DiscardHandler)})
	for _, th := range []*Throttle{f.s.throttle.pairs, f.s.throttle.accounts, f.s.throttle.addresses, f.s.throttle.networks} {
		th.now = func() time.Time { return f.now }
	}
	// These tests count what the throttle lets through; how long the
	// hashing queue would make a sign-in wait is another matter (its own
	// tests). On a slow machine (the race detector, a loaded CI) a burst of
	// a thousand could otherwise be shed as busy before the throttle is
	// reached, so here no wait is too long.
	for _, q := range []*hashQueue{f.s.hashing, f.s.knownDevices} {
		q.maxWait = 24 * time.Hour
	}
	f.s.verify = func(hash, password string) (bool, error) {
		f.checks.Add(1)
		f.mu.Lock()
		f.active++
		f.peak = max(f.peak, f.active)
		f.mu.Unlock()
		time.Sleep(time.Millisecond) // long enough for others to queue behind it
		f.mu.Lock()
		f.active--
		f.mu.Unlock()
		return hash == "stub:"+password, nil
	}
	return f
}

// users stores n accounts whose password is goodPassword.
func (f *throttleFixture) users(prefix string, n int) []string {
	f.t.Helper()
	ctx := context.Background()
	mails := make([]string, n)
	for i := range n {
		u := domain.User{ID: domain.NewID(), Mail: fmt.Sprintf("%s.%04d@utpl.edu.ec", prefix, i), Role: domain.RoleStudent, CreatedAt: f.now}
		if err := f.s.store.CreateUser(ctx, u); err != nil {
			f.t.Fatal(err)
		}
		if err := f.s.store.SetPasswordHash(ctx, u.ID, "stub:"+goodPassword); err != nil {
			f.t.Fatal(err)
		}
		mails[i] = u.Mail
	}
	return mails
}

// signIn returns the answer's code ("ok" for a success) and, for a
// refusal, how long to wait.
func (f *throttleFixture) signIn(email, password, ip string) (string, time.Duration) {
	_, err := f.s.LoginPassword(context.Background(), email, password, ip)
	var wait time.Duration
	if ue := (*domain.UserError)(nil); errors.As(err, &ue) && ue.Code == CodeTooManyAttempts {
		wait = time.Duration(ue.Details.(map[string]int)["retryAfterSeconds"]) * time.Second
	}
	return errorCode(err), wait
}

// The owner is never refused because of someone else's failures from
// another address: an attacker at one address fails a hundred times
// (waiting out every refusal, over hours), and the owner signs in from
// home in between and at the end.
func TestAttackerFailingAHundredTimesDoesNotStopTheOwner(t *testing.T) {
	f := newThrottleFixture(t)
	owner := f.users("duena", 1)[0]
	failures := 0
	for failures < 100 {
		code, wait := f.signIn(owner, fmt.Sprintf("adivinanza-%d", failures), "203.0.113.66")
		switch code {
		case CodeInvalidCredentials:
			failures++
		case CodeTooManyAttempts:
			f.now = f.now.Add(wait)
			continue
		default:
			t.Fatalf("attacker's attempt: %s", code)
		}
		if failures%10 == 0 {
			if code, _ := f.signIn(owner, goodPassword, "198.51.100.7"); code != "ok" {
				t.Fatalf("owner after %d failures elsewhere: %s", failures, code)
			}
		}
	}
	if code, _ := f.signIn(owner, goodPassword, "198.51.100.7"); code != "ok" {
		t.Fatalf("owner after the attack: %s", code)
	}
}

// A brute force from one address stops at the pair's allowance: five
// failures, then waits that double; in parallel as well as one by one.
func TestBruteForceFromOneAddressStopsAfterFiveFailures(t *testing.T) {
	f := newThrottleFixture(t)
	victim := f.users("victima", 1)[0]
	codes := loginBurst(f.s, 40, func(i int) (string, string, string) {
		return victim, fmt.Sprintf("intento-%d", i), "203.0.113.7"
	})
	if codes[CodeInvalidCredentials] != pairFailures || codes[CodeTooManyAttempts] != 40-pairFailures || f.checks.Load() != pairFailures {
		t.Fatalf("40 guesses at once from one address: %v after %d checks; want %d checked, the rest refused", codes, f.checks.Load(), pairFailures)
	}
	code, wait := f.signIn(victim, goodPassword, "203.0.113.7")
	if code != CodeTooManyAttempts || wait != 31*time.Second {
		t.Fatalf("next attempt from that address: %s, wait %v; want refused for 30 s", code, wait)
	}
	f.now = f.now.Add(wait)
	if code, _ := f.signIn(victim, "otra", "203.0.113.7"); code != CodeInvalidCredentials {
		t.Fatalf("after the wait: %s", code)
	}
	if _, wait := f.signIn(victim, "otra", "203.0.113.7"); wait != 61*time.Second {
		t.Fatalf("after one more failure the wait is %v, want 1 min (doubling)", wait)
	}
	// An IPv6 attacker does not get a fresh allowance from each address of
	// its network: addresses are counted by their /64.
	v6 := f.users("seis", 1)[0]
	for i := range pairFailures {
		f.signIn(v6, "mala", fmt.Sprintf("2001:db8:1:2::%x", i+1))
	}
	if code, _ := f.signIn(v6, "mala", "2001:db8:1:2:ffff::1"); code != CodeTooManyAttempts {
		t.Fatalf("another address of the same /64: %s", code)
	}
}

// A distributed brute force on one account is slowed: once the account
// has its allowance of failures, each attacking address gets one check at
// most (none once it has failed), while the owner, whose address has a
// clean history, still signs in.
func TestDistributedGuessingIsSlowedAndTheOwnerStillSignsIn(t *testing.T) {
	f := newThrottleFixture(t)
	owner := f.users("tutora", 1)[0]
	const addresses, rounds = 40, 5
	refusedAs := map[string]int{}
	for r := range rounds {
		for a := range addresses {
			code, _ := f.signIn(owner, fmt.Sprintf("clave-%d-%d", r, a), fmt.Sprintf("198.18.%d.%d", a/200, a%200+1))
			refusedAs[code]++
		}
	}
	if f.checks.Load() != addresses || refusedAs[CodeTooManyAttempts] != addresses*(rounds-1) {
		t.Fatalf("%d guesses from %d addresses: %d checked (%v); want one per address", addresses*rounds, addresses, f.checks.Load(), refusedAs)
	}
	if code, _ := f.signIn(owner, goodPassword, "192.0.2.10"); code != "ok" {
		t.Fatalf("owner from a clean address during the attack: %s", code)
	}
	// The price: an address that failed on the account waits while the
	// attack goes on, even with the right password (docs/security.md).
	if code, _ := f.signIn(owner, goodPassword, "198.18.0.1"); code != CodeTooManyAttempts {
		t.Fatalf("an address with a failure on the account under attack: %s", code)
	}

	// The same flood at once: before the account's failures are counted
	// every address may use its own allowance, so the checks are the
	// account's allowance and the ones running when it ran out, then one
	// per address at most.
	g := newThrottleFixture(t)
	owner = g.users("tutor", 1)[0]
	codes := loginBurst(g.s, addresses*rounds, func(i int) (string, string, string) {
		return owner, fmt.Sprintf("clave-%d", i), fmt.Sprintf("198.18.1.%d", i%addresses+1)
	})
	t.Logf("%d guesses at once from %d addresses: %d checked, at most %d at a time", addresses*rounds, addresses, g.checks.Load(), g.peak)
	if checked := int(g.checks.Load()); checked > accountFailures+2*g.peak+addresses {
		t.Fatalf("%d guesses at once from %d addresses: %d checks (%v), at most %d at a time; want at most %d",
			addresses*rounds, addresses, checked, codes, g.peak, accountFailures+2*g.peak+addresses)
	}
	if code, _ := g.signIn(owner, goodPassword, "192.0.2.10"); code != "ok" {
		t.Fatalf("owner after the flood: %s", code)
	}
}

// A campus behind one NAT address: a thousand students sign in at once
// with their right passwords (and fifty mistype theirs first); nobody is
// refused, because only failures count against an address.
func TestNATAddressWithAThousandCorrectSignInsIsNeverRefused(t *testing.T) {
	f := newThrottleFixture(t)
	students := f.users("alumno", 1000)
	const nat = "200.0.113.1"
	codes := loginBurst(f.s, len(students)+50, func(i int) (string, string, string) {
		if i >= len(students) {
			return students[i-len(students)], "typo", nat
		}
		return students[i], goodPassword, nat
	})
	if codes["ok"] != len(students) || codes[CodeInvalidCredentials] != 50 || codes[CodeTooManyAttempts] != 0 {
		t.Fatalf("a thousand students and fifty typos behind one address: %v", codes)
	}
	if code, _ := f.signIn(students[0], goodPassword, nat); code != "ok" {
		t.Fatalf("signing in again: %s", code)
	}
}

// Spraying one password over many accounts from one address meets the
// address's allowance of failures. In parallel it overshoots at most by
// the password checks that were running at once, not by the requests
// queued behind them.
func TestSprayingFromOneAddressMeetsTheAddressAllowance(t *testing.T) {
	f := newThrottleFixture(t)
	real := f.users("real", 1)[0]
	for i := range addressFailures {
		if code, _ := f.signIn(fmt.Sprintf("rociado.%d@utpl.edu.ec", i), "Verano2026", "203.0.113.9"); code != CodeInvalidCredentials {
			t.Fatalf("failure %d: %s", i+1, code)
		}
	}
	if code, _ := f.signIn(real, goodPassword, "203.0.113.9"); code != CodeTooManyAttempts {
		t.Fatalf("behind the address past its allowance, even a right password waits: %s", code)
	}
	if code, _ := f.signIn(real, goodPassword, "203.0.113.10"); code != "ok" {
		t.Fatalf("the same account from another address: %s", code)
	}

	// Sprayed over real accounts, in parallel (made-up ones cost no check).
	g := newThrottleFixture(t)
	sprayed := g.users("rociada", 3*addressFailures)
	codes := loginBurst(g.s, 3*addressFailures, func(i int) (string, string, string) {
		return sprayed[i], "Verano2026", "203.0.113.9"
	})
	checked := int(g.checks.Load())
	t.Logf("%d sprays at once from one address: %d checked, at most %d at a time", 3*addressFailures, checked, g.peak)
	if checked < addressFailures || checked > addressFailures+2*g.peak || codes[CodeTooManyAttempts] != 3*addressFailures-checked {
		t.Fatalf("%d sprays at once: %d checked (%v), at most %d at a time; want %d plus at most twice that",
			3*addressFailures, checked, codes, g.peak, addressFailures)
	}
}

// A success forgets the pair's failures but not the account's or the
// address's, and a request that ends before its check counts nowhere.
func TestWhatASuccessAndAnAbandonedAttemptLeave(t *testing.T) {
	f := newThrottleFixture(t)
	ana := f.users("ana", 1)[0]
	ctx := context.Background()
	for range pairFailures - 1 {
		f.signIn(ana, "mala", "192.0.2.1")
	}
	if code, _ := f.signIn(ana, goodPassword, "192.0.2.1"); code != "ok" {
		t.Fatalf("right password within the allowance: %s", code)
	}
	counted := func(th *Throttle, key string) int64 {
		n, err := th.Counted(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if p, a, ip := counted(f.s.throttle.pairs, "pair:192.0.2.1|"+ana), counted(f.s.throttle.accounts, "mail:"+ana),
		counted(f.s.throttle.addresses, "ip:192.0.2.1"); p != 0 || a != pairFailures-1 || ip != pairFailures-1 {
		t.Fatalf("after a success: pair %d, account %d, address %d; want 0, %d, %d", p, a, ip, pairFailures-1, pairFailures-1)
	}
	f.s.verify = func(string, string) (bool, error) { return false, errors.New("the check itself failed") }
	if _, err := f.s.LoginPassword(ctx, ana, "mala", "192.0.2.2"); err == nil || errorCode(err) == CodeInvalidCredentials {
		t.Fatalf("a sign-in whose check failed: %v", err)
	}
	if n := counted(f.s.throttle.pairs, "pair:192.0.2.2|"+ana); n != 0 {
		t.Fatalf("an abandoned attempt stayed counted: %d", n)
	}
}
