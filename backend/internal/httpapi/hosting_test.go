package httpapi_test

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/deploy"
	"github.com/utpl/simulador/backend/internal/httpapi"
	"github.com/utpl/simulador/backend/internal/testsupport/hostingproxy"
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

// TestTOTPSignInBehindFirebaseHosting: the password step's pending sign-in
// rides in __session (the only cookie Hosting forwards), marked so that it
// is never taken for a session; the code step replaces it with a session.
// A browser that was signed in gives its old session up for good (it is
// revoked, not orphaned), and a wrong or expired step never clears a live
// session's cookie.
func TestTOTPSignInBehindFirebaseHosting(t *testing.T) {
	t.Parallel()
	signedIn := func(b *browser) bool { return field(b.do(http.MethodGet, "/api/session", nil).body, "user") != nil }
	srv := newTestServer(t, map[string]string{"FIREBASE_HOSTING": "true"})
	if _, err := srv.auth.CreateUser(t.Context(), "tutora@utpl.edu.ec", "clave-segura-123", "tutor", "Tutora"); err != nil {
		t.Fatal(err)
	}
	password := map[string]string{"email": "tutora@utpl.edu.ec", "password": "clave-segura-123"}
	b := behindHosting(t, srv)
	if res := b.do(http.MethodPost, "/api/auth/login", password); res.status != http.StatusOK || !signedIn(b) {
		t.Fatalf("login before enrolment: %d %v", res.status, res.body)
	}
	setup := b.do(http.MethodPost, "/api/me/mfa/totp", map[string]string{"password": "clave-segura-123"})
	secret, _ := setup.body["secret"].(string)
	if setup.status != http.StatusOK || secret == "" {
		t.Fatalf("enrol: %d %v", setup.status, setup.body)
	}
	if res := b.do(http.MethodPost, "/api/me/mfa/totp/confirm", map[string]string{"code": totpCode(t, secret, time.Now())}); res.status != http.StatusOK {
		t.Fatalf("confirm: %d %v", res.status, res.body)
	}

	// Signed in, the tutor signs in again: the pending sign-in takes the
	// cookie's place and the old session is revoked, not left behind.
	oldSession := b.cookie("__session")
	res := b.do(http.MethodPost, "/api/auth/login", password)
	if res.status != http.StatusOK || res.body["mfaRequired"] != true {
		t.Fatalf("password step: %d %v", res.status, res.body)
	}
	pending := b.cookie("__session")
	if !strings.HasPrefix(pending, "mfa.") {
		t.Fatalf("the pending sign-in is not in __session: %q", pending)
	}
	if signedIn(b) {
		t.Fatal("a pending sign-in was taken for a session")
	}
	replay := behindHosting(t, srv)
	replay.client.Jar.SetCookies(b.jarURL(), []*http.Cookie{{Name: "__session", Value: oldSession, Path: "/"}})
	if signedIn(replay) {
		t.Fatal("the session the pending sign-in replaced is still alive")
	}
	// Without its mark, the pending token is nothing.
	unmarked := behindHosting(t, srv)
	unmarked.client.Jar.SetCookies(b.jarURL(), []*http.Cookie{{Name: "__session", Value: strings.TrimPrefix(pending, "mfa."), Path: "/"}})
	if res := unmarked.do(http.MethodPost, "/api/auth/login/code", map[string]string{"code": totpCode(t, secret, time.Now().Add(30*time.Second))}); res.status != http.StatusUnauthorized {
		t.Fatalf("an unmarked pending token: %d %v", res.status, res.body)
	}

	if res := b.do(http.MethodPost, "/api/auth/login/code", map[string]string{"code": "000000"}); res.status != http.StatusBadRequest {
		t.Fatalf("wrong code: %d %v", res.status, res.body)
	}
	res = b.do(http.MethodPost, "/api/auth/login/code", map[string]string{"code": totpCode(t, secret, time.Now().Add(30*time.Second))})
	if res.status != http.StatusOK || field(res.body, "user") == nil {
		t.Fatalf("code step behind Hosting: %d %v", res.status, res.body)
	}
	if s := b.cookie("__session"); s == "" || strings.HasPrefix(s, "mfa.") || !signedIn(b) {
		t.Fatalf("after the code: cookie %q, signed in %v", s, signedIn(b))
	}

	// A code step with a live session and no pending sign-in keeps the
	// session's cookie.
	if res := b.do(http.MethodPost, "/api/auth/login/code", map[string]string{"code": "123456"}); res.status != http.StatusUnauthorized {
		t.Fatalf("code step without a pending sign-in: %d %v", res.status, res.body)
	}
	if !signedIn(b) {
		t.Fatal("a code step without a pending sign-in signed the browser out")
	}
}

// TestHostingAnswersAsTheServer: what Firebase Hosting, configured by the
// firebase.json the repository deploys, sends for the app's pages, a
// hashed asset, a missing one and the API is what the server sends when
// reached directly (status, Cache-Control, Content-Type). A stale page
// cached for an hour, or index.html answered for a missing script, would
// leave a browser on a blank page after a deploy.
func TestHostingAnswersAsTheServer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	dist := filepath.Join(dir, "frontend", "dist")
	for name, body := range map[string]string{
		"index.html":             `<!doctype html><html><head><!--app-config--><script type="module" src="/assets/index-Ab12Cd.js"></script></head></html>`,
		"assets/index-Ab12Cd.js": "console.log('app')",
		"robots.txt":             "User-agent: *\nDisallow: /\n",
		"favicon.svg":            "<svg xmlns='http://www.w3.org/2000/svg'/>",
	} {
		full := filepath.Join(dist, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := deploy.ReferenceConfig(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	firebaseJSON, err := deploy.Firebase(deploy.DefaultService, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "firebase.json"), firebaseJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, map[string]string{"FIREBASE_HOSTING": "true", "TRUST_PROXY": "true"},
		func(d *httpapi.Deps) { d.Frontend = os.DirFS(dist) })
	service, _ := url.Parse(srv.URL)
	p, err := hostingproxy.New(hostingproxy.Options{Config: filepath.Join(dir, "firebase.json"), Service: service})
	if err != nil {
		t.Fatal(err)
	}
	site := httptest.NewServer(p)
	t.Cleanup(site.Close)

	// get returns the answer's status and headers (the body is read and closed).
	type answer struct {
		StatusCode int
		Header     http.Header
	}
	get := func(base, path string) answer {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		_, _ = io.Copy(io.Discard, res.Body)
		return answer{StatusCode: res.StatusCode, Header: res.Header}
	}
	for _, path := range []string{"/", "/inicio", "/login", "/auth/carreras", "/robots.txt", "/favicon.svg",
		"/assets/index-Ab12Cd.js", "/assets/index-Gone00.js", "/api/session", "/api/no-such-thing"} {
		direct, hosted := get(srv.URL, path), get(site.URL, path)
		if direct.StatusCode != hosted.StatusCode {
			t.Errorf("%s: status %d through Hosting, %d from the server", path, hosted.StatusCode, direct.StatusCode)
		}
		if d, h := direct.Header.Get("Cache-Control"), hosted.Header.Get("Cache-Control"); d != h && direct.StatusCode < 400 {
			t.Errorf("%s: Cache-Control %q through Hosting, %q from the server", path, h, d)
		}
		if d, h := direct.Header.Get("Content-Type"), hosted.Header.Get("Content-Type"); d != h && direct.StatusCode < 400 {
			t.Errorf("%s: Content-Type %q through Hosting, %q from the server", path, h, d)
		}
		if direct.StatusCode == http.StatusNotFound && strings.HasPrefix(path, "/assets/") &&
			strings.HasPrefix(hosted.Header.Get("Content-Type"), "text/javascript") {
			t.Errorf("%s: a missing asset is answered as a script through Hosting", path)
		}
		if strings.HasPrefix(path, "/api/") && hosted.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: an API answer through Hosting has Cache-Control %q", path, hosted.Header.Get("Cache-Control"))
		}
	}
}
