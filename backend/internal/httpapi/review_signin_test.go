package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
)

// Regression tests for the security review's sign-in findings: F-05
// (throttling locked out the real user and everyone behind a shared
// address), F-06 (forwarded addresses trusted too far) and F-22 (a flood
// of sign-ins made real ones wait). Each repeats the review's probe.

// signInVia posts a password sign-in as a browser behind the proxy would: the
// connection comes from the proxy (peer), which says who the client is in
// X-Forwarded-For (empty: no header).
func (e *env) signInVia(email, password, peer, forwardedFor string) *httptest.ResponseRecorder {
	e.t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": password})
	req := httptest.NewRequest(http.MethodPost, "/api/auth/login", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = peer + ":40000"
	if forwardedFor != "" {
		req.Header.Set("X-Forwarded-For", forwardedFor)
	}
	res := httptest.NewRecorder()
	e.handler.ServeHTTP(res, req)
	return res
}

// behindCloudRun is the review's instance: TRUST_PROXY=true, reached
// through a proxy on loopback that names the client.
func behindCloudRun(c *config.Config) { c.TrustProxy = true }

const proxyPeer = "127.0.0.1"

// F-05, per account: five wrong passwords for an account, then the right
// one from a fresh address. Before the fix the account was locked for
// everyone (429 Retry-After 30); now only the address that failed waits.
func TestF05FailuresElsewhereDoNotLockOutTheOwner(t *testing.T) {
	t.Parallel()
	e := newEnv(t, behindCloudRun)
	victim := e.users[tutor].Mail
	for i := range 6 {
		res := e.signInVia(victim, "wrong", proxyPeer, "203.0.113.66")
		if want := http.StatusUnauthorized; i == 5 {
			want = http.StatusTooManyRequests // the attacker's address is slowed down
			if res.Code != want || res.Header().Get("Retry-After") == "" {
				t.Fatalf("attempt %d from the attacker's address = %d (Retry-After %q), want %d", i+1, res.Code, res.Header().Get("Retry-After"), want)
			}
		} else if res.Code != want {
			t.Fatalf("attempt %d = %d, want %d", i+1, res.Code, want)
		}
	}
	if res := e.signInVia(victim, testPassword, proxyPeer, "198.51.100.20"); res.Code != http.StatusOK {
		t.Fatalf("the owner's right password from another address = %d %s, want 200", res.Code, res.Body)
	}
}

// F-05, per address: twenty failures from one address (a lab behind one
// NAT where people mistype), then a correct password for an untouched
// account from the same address. Before the fix: 429.
func TestF05FailuresOfOthersBehindOneAddressDoNotLockItOut(t *testing.T) {
	t.Parallel()
	e := newEnv(t, behindCloudRun)
	const nat = "203.0.113.10"
	for i := range 20 {
		if res := e.signInVia(fmt.Sprintf("alguien.%d@utpl.edu.ec", i), "mala-clave", proxyPeer, nat); res.Code != http.StatusUnauthorized {
			t.Fatalf("failure %d = %d", i+1, res.Code)
		}
	}
	if res := e.signInVia(e.users[studentInGrp].Mail, testPassword, proxyPeer, nat); res.Code != http.StatusOK {
		t.Fatalf("a correct password behind the same address = %d %s, want 200", res.Code, res.Body)
	}
}

// F-05 (and the campus NAT of the load test): sign-ins in flight at once
// from one address, all with the right password. Before the fix the ones
// past the twentieth were refused with 429 though none had failed.
func TestF05CorrectSignInsInFlightFromOneAddressAreNeverRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, behindCloudRun)
	const students = 40
	mails := make([]string, students)
	for i := range mails {
		mails[i] = fmt.Sprintf("estudiante.%02d@utpl.edu.ec", i)
		if _, err := e.auth.CreateUser(t.Context(), mails[i], testPassword, domain.RoleStudent, fmt.Sprintf("Estudiante %d", i)); err != nil {
			t.Fatal(err)
		}
	}
	codes := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := make(chan struct{})
	for _, m := range mails {
		wg.Go(func() {
			<-start
			res := e.signInVia(m, testPassword, proxyPeer, "203.0.113.10")
			mu.Lock()
			codes[res.Code]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	if codes[http.StatusOK] != students {
		t.Fatalf("%d correct sign-ins at once from one address: %v, want all 200", students, codes)
	}
}

// F-06: with TRUST_PROXY=true a client prepends an address of its choice;
// the review saw "X-Forwarded-For: 9.9.9.9, 10.80.0.1" resolved to 9.9.9.9.
// Only the entry the trusted proxy added (the last) names the client.
func TestF06AForgedForwardedAddressIsNotTheClient(t *testing.T) {
	t.Parallel()
	e := newEnv(t, behindCloudRun, func(c *config.Config) { c.LogFormat = "json" })
	e.signInVia("nadie@utpl.edu.ec", "mala-clave", proxyPeer, "9.9.9.9, 10.80.0.1")
	failures := events(jsonLines(t, e.logs.String()), "auth.login.failure")
	if len(failures) != 1 || failures[0]["ip"] != "10.80.0.1" {
		t.Fatalf("sign-in failure logged as %v, want ip 10.80.0.1 (the address the proxy saw)", failures)
	}
}

// F-06, the throttle's side: a client that changes the forged part of
// X-Forwarded-For on every try is still one address, so spraying
// passwords over many accounts from it meets the address's allowance of
// failures (100 in 15 minutes, docs/security.md). Before the fix every
// forged value was a new address and nothing was ever refused.
func TestF06ForgedAddressesDoNotEscapeTheThrottle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, behindCloudRun)
	const addressAllowance = 100
	codes := map[int]int{}
	for i := range addressAllowance + 3 {
		res := e.signInVia(fmt.Sprintf("rociado.%d@utpl.edu.ec", i), "mala-clave", proxyPeer, fmt.Sprintf("9.9.%d.%d, 10.80.0.1", i/250, i%250))
		codes[res.Code]++
	}
	if codes[http.StatusUnauthorized] != addressAllowance || codes[http.StatusTooManyRequests] != 3 {
		t.Fatalf("answers %v, want %d checked and refused, then 3 throttled", codes, addressAllowance)
	}
}

// F-22: a flood of wrong passwords for one account from many addresses.
// The owner still signs in, and a flooding address gets one password check
// at most while the account is under attack, so the flood does not fill
// the password-hashing queue the owner waits in. (Its cost in time is
// measured by BenchmarkSignInDuringFlood in the auth package.) Before the
// fix the owner was refused with 429 like the flood.
func TestF22AFloodOnOneAccountStillLetsTheOwnerIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, behindCloudRun)
	victim := e.users[tutor].Mail
	const addresses, rounds = 24, 4
	codes := map[int]int{}
	for r := range rounds {
		for a := range addresses {
			res := e.signInVia(victim, fmt.Sprintf("intento-%d-%d", r, a), proxyPeer, fmt.Sprintf("198.18.0.%d", a+1))
			codes[res.Code]++
		}
	}
	if codes[http.StatusUnauthorized] > addresses {
		t.Fatalf("flood answers %v: %d wrong passwords were checked, want at most one per address (%d)", codes, codes[http.StatusUnauthorized], addresses)
	}
	if res := e.signInVia(victim, testPassword, proxyPeer, "192.0.2.44"); res.Code != http.StatusOK {
		t.Fatalf("the owner during the flood = %d %s, want 200", res.Code, res.Body)
	}
}
