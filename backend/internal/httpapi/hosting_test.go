package httpapi_test

import (
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/testsupport/oidctest"
)

// hostingTransport forwards requests as Firebase Hosting's rewrites to
// Cloud Run do: of the browser's cookies only __session reaches the server.
type hostingTransport struct{}

func (hostingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	kept := ""
	for _, c := range r.Cookies() {
		if c.Name == "__session" {
			kept = c.String()
		}
	}
	r.Header.Del("Cookie")
	if kept != "" {
		r.Header.Set("Cookie", kept)
	}
	return http.DefaultTransport.RoundTrip(r)
}

// behindHosting is a browser whose requests pass through Firebase Hosting.
func behindHosting(t *testing.T, srv *testServer) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &browser{t: t, srv: srv, client: &http.Client{Jar: jar, Transport: hostingTransport{}}}
}

// TestSignInBehindFirebaseHosting: Hosting forwards only the cookie named
// __session. Without FIREBASE_HOSTING the session cookie is dropped on the
// way and the browser seems signed out at once; with it, password and
// Microsoft sign-ins keep their session, and the Microsoft nonce, which
// travels in the same cookie, still binds the token to the browser.
func TestSignInBehindFirebaseHosting(t *testing.T) {
	t.Parallel()
	signedIn := func(b *browser) bool { return field(b.do(http.MethodGet, "/api/session", nil).body, "user") != nil }
	iss := oidctest.New(t, oidctest.Options{})
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := iss.WriteCAFile(ca); err != nil {
		t.Fatal(err)
	}
	env := func(hosting string) map[string]string {
		return map[string]string{"MS_TENANT_ID": iss.TenantID(), "MS_CLIENT_ID": iss.ClientID(), "MS_AUTHORITY": iss.Authority(),
			"MS_CA_FILE": ca, "MS_EMAIL_DOMAINS": "utpl.edu.ec", "FIREBASE_HOSTING": hosting}
	}

	plain := newTestServer(t, env("false"))
	if _, err := plain.auth.CreateUser(t.Context(), "ana@utpl.edu.ec", "clave-segura-123", "estudiante", "Ana"); err != nil {
		t.Fatal(err)
	}
	b := behindHosting(t, plain)
	if res := b.do(http.MethodPost, "/api/auth/login", map[string]string{"email": "ana@utpl.edu.ec", "password": "clave-segura-123"}); res.status != http.StatusOK {
		t.Fatalf("login: %d %v", res.status, res.body)
	}
	if signedIn(b) {
		t.Fatal("the __Host- session cookie passed the Hosting transport: the test's stand-in for Hosting is wrong")
	}

	srv := newTestServer(t, env("true"))
	if _, err := srv.auth.CreateUser(t.Context(), "ana@utpl.edu.ec", "clave-segura-123", "estudiante", "Ana"); err != nil {
		t.Fatal(err)
	}
	b = behindHosting(t, srv)
	res := b.do(http.MethodPost, "/api/auth/login", map[string]string{"email": "ana@utpl.edu.ec", "password": "clave-segura-123"})
	if res.status != http.StatusOK || !strings.Contains(strings.Join(res.header.Values("Set-Cookie"), "\n"), "__session=") {
		t.Fatalf("login: %d %v %v", res.status, res.body, res.header.Values("Set-Cookie"))
	}
	for _, attr := range []string{"HttpOnly", "Secure", "Path=/", "SameSite=Lax"} {
		if !strings.Contains(res.header.Get("Set-Cookie"), attr) {
			t.Errorf("the __session cookie lacks %s: %s", attr, res.header.Get("Set-Cookie"))
		}
	}
	if !signedIn(b) {
		t.Fatal("behind Hosting with FIREBASE_HOSTING=true the session does not hold")
	}
	if res := b.do(http.MethodPost, "/api/auth/logout", nil); res.status >= 300 || signedIn(b) {
		t.Fatalf("logout: %d, still signed in: %v", res.status, signedIn(b))
	}

	// Microsoft: the nonce rides in __session, is no session itself, and
	// the sign-in replaces it with one.
	ms := behindHosting(t, srv)
	start := ms.do(http.MethodPost, "/api/auth/microsoft/start", nil)
	nonce, _ := start.body["nonce"].(string)
	if start.status != http.StatusOK || nonce == "" || ms.cookie("__session") != "nonce."+nonce {
		t.Fatalf("start: %d %v, cookie %q", start.status, start.body, ms.cookie("__session"))
	}
	if signedIn(ms) {
		t.Fatal("a nonce was taken for a session")
	}
	tok, err := iss.IDToken(oidctest.SignIn{User: oidctest.User{Email: "nuevo@utpl.edu.ec", Name: "Nuevo Estudiante"}, Nonce: nonce})
	if err != nil {
		t.Fatal(err)
	}
	if res := ms.login(tok); res.status != http.StatusOK {
		t.Fatalf("Microsoft sign-in behind Hosting: %d %v", res.status, res.body)
	}
	if !signedIn(ms) || strings.HasPrefix(ms.cookie("__session"), "nonce.") {
		t.Fatalf("after the Microsoft sign-in: signed in %v, cookie %q", signedIn(ms), ms.cookie("__session"))
	}
	// Another browser cannot use that nonce: it is bound to the cookie.
	other := behindHosting(t, srv)
	other.do(http.MethodPost, "/api/auth/microsoft/start", nil)
	tok, _ = iss.IDToken(oidctest.SignIn{User: oidctest.User{Email: "otro@utpl.edu.ec", Name: "Otro"}, Nonce: nonce})
	if res := other.login(tok); res.status != http.StatusUnauthorized {
		t.Fatalf("another browser's nonce: %d %v", res.status, res.body)
	}
}
