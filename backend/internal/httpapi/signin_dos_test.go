package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/utpl/simulador/backend/internal/config"
)

// signInWithDevice is signInVia from a browser that shows a device token.
func (e *env) signInWithDevice(email, password, device, forwardedFor string) *httptest.ResponseRecorder {
	e.t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": password, "device": device})
	req := httptest.NewRequest(http.MethodPost, "/api/auth/login", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = proxyPeer + ":40000"
	req.Header.Set("X-Forwarded-For", forwardedFor)
	res := httptest.NewRecorder()
	e.handler.ServeHTTP(res, req)
	return res
}

// S3-06: from one campus address, a classmate's five guesses on the
// owner's account and a hundred failures on made-up accounts do not keep
// the owner out: the browser the owner signed in with before shows the
// device token its sign-in answered with, and signs in.
func TestS306TheOwnersBrowserSignsInFromALockedCampusAddress(t *testing.T) {
	t.Parallel()
	e := newEnv(t, behindCloudRun)
	owner := e.users[studentInGrp].Mail
	const campus = "200.0.113.4"
	first := e.signInVia(owner, testPassword, proxyPeer, campus)
	device := decode[struct {
		Device string `json:"device"`
	}](t, first).Device
	if first.Code != http.StatusOK || device == "" {
		t.Fatalf("first sign-in = %d %s, want 200 with a device token", first.Code, first.Body)
	}
	for i := range 5 {
		if res := e.signInVia(owner, fmt.Sprintf("adivina-%d", i), proxyPeer, campus); res.Code != http.StatusUnauthorized {
			t.Fatalf("guess %d = %d", i+1, res.Code)
		}
	}
	for i := range 95 {
		if res := e.signInVia(fmt.Sprintf("inventado.%d@utpl.edu.ec", i), "Verano2026", proxyPeer, campus); res.Code != http.StatusUnauthorized {
			t.Fatalf("made-up account %d = %d", i+1, res.Code)
		}
	}
	if res := e.signInVia(owner, testPassword, proxyPeer, campus); res.Code != http.StatusTooManyRequests {
		t.Fatalf("a new browser at the locked address = %d, want 429", res.Code)
	}
	if res := e.signInWithDevice(owner, testPassword, device, campus); res.Code != http.StatusOK {
		t.Fatalf("the owner's browser at the locked address = %d %s, want 200", res.Code, res.Body)
	}
}

// S3-07: behind Firebase Hosting, a caller that reaches the *.run.app
// address directly and writes a campus address into X-Forwarded-For is
// counted under its own address, so its failures never lock the campus out.
func TestS307ADirectCallerCannotLockOutACampusBehindHosting(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *config.Config) { c.TrustProxy, c.FirebaseHosting = true, true })
	for i := range 101 {
		e.signInVia(fmt.Sprintf("inventado.%d@utpl.edu.ec", i), "Verano2026", proxyPeer, "198.51.100.9, 203.0.113.50, 192.0.2.66")
	}
	// A campus student through Hosting: the campus address, then Hosting's
	// side of the hop as Cloud Run's front end appends it.
	if res := e.signInVia(e.users[studentInGrp].Mail, testPassword, proxyPeer, "203.0.113.50, 35.191.7.7"); res.Code != http.StatusOK {
		t.Fatalf("campus student through Hosting = %d %s, want 200", res.Code, res.Body)
	}
}
