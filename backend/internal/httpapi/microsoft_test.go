package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/httpapi"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
	"github.com/utpl/simulador/backend/internal/testsupport/oidctest"
	"github.com/utpl/simulador/backend/internal/testsupport/safebuf"
)

// testServer is the API wired as cmd/simulador wires it, on a SQLite store
// in a temporary directory.
type testServer struct {
	*httptest.Server
	auth *auth.Service
	logs *safebuf.Buffer
}

func newTestServer(t *testing.T, env map[string]string, with ...func(*httpapi.Deps)) *testServer {
	t.Helper()
	env["DATA_DIR"] = t.TempDir()
	cfg, err := config.Load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, cfg.SQLitePath())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ms, err := auth.NewMicrosoftVerifier(cfg.Microsoft)
	if err != nil {
		t.Fatal(err)
	}
	authSvc := auth.NewService(st, auth.NewSessions(st, cfg.SessionIdle, cfg.SessionMax), ms)
	logs := &safebuf.Buffer{}
	log := slog.New(slog.NewTextHandler(io.MultiWriter(logs, t.Output()), nil))
	ms.SetLogger(log) // as cmd/simulador does: one log for the server, the verifier and the events
	authSvc.Configure(auth.Options{Log: log, TutorsRequireMicrosoft: cfg.TutorsRequireMicrosoft})
	deps := httpapi.Deps{Config: cfg, Store: st, Auth: authSvc, Groups: groups.NewService(st), Log: log}
	for _, f := range with {
		f(&deps)
	}
	h := httpapi.New(deps)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &testServer{Server: srv, auth: authSvc, logs: logs}
}

func newMicrosoftServer(t *testing.T) (*testServer, *oidctest.Issuer) {
	t.Helper()
	iss := oidctest.New(t, oidctest.Options{})
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := iss.WriteCAFile(ca); err != nil {
		t.Fatal(err)
	}
	return newTestServer(t, map[string]string{
		"MS_TENANT_ID": iss.TenantID(), "MS_CLIENT_ID": iss.ClientID(), "MS_AUTHORITY": iss.Authority(), "MS_CA_FILE": ca,
		"MS_EMAIL_DOMAINS": "utpl.edu.ec",
	}), iss
}

// browser is one browser: a cookie jar.
type browser struct {
	t      *testing.T
	srv    *testServer
	client *http.Client
}

func newBrowser(t *testing.T, srv *testServer) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &browser{t: t, srv: srv, client: &http.Client{Jar: jar}}
}

type apiResponse struct {
	status int
	body   map[string]any
	header http.Header
}

func (b *browser) do(method, path string, body any) apiResponse {
	b.t.Helper()
	var r io.Reader
	if body != nil {
		buf, _ := json.Marshal(body)
		r = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, b.srv.URL+path, r)
	if err != nil {
		b.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	out := apiResponse{status: res.StatusCode, header: res.Header}
	raw, _ := io.ReadAll(res.Body)
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &out.body); err != nil {
			b.t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
		}
	}
	return out
}

func (b *browser) jarURL() *url.URL {
	u, _ := url.Parse(b.srv.URL + "/api/auth/microsoft")
	return u
}

func (b *browser) cookie(name string) string {
	for _, c := range b.client.Jar.Cookies(b.jarURL()) {
		if c.Name == name {
			return c.Value
		}
	}
	return ""
}

// start is POST /api/auth/microsoft/start: the nonce for the popup.
func (b *browser) start() string {
	b.t.Helper()
	res := b.do(http.MethodPost, "/api/auth/microsoft/start", nil)
	if res.status != http.StatusOK {
		b.t.Fatalf("start: %d %v", res.status, res.body)
	}
	nonce, _ := res.body["nonce"].(string)
	if nonce == "" || b.cookie("__Secure-simulador_ms_nonce") != nonce {
		b.t.Fatalf("start: nonce %q, cookie %q", nonce, b.cookie("__Secure-simulador_ms_nonce"))
	}
	return nonce
}

func (b *browser) login(idToken string) apiResponse {
	b.t.Helper()
	return b.do(http.MethodPost, "/api/auth/microsoft", map[string]string{"idToken": idToken})
}

// signIn is the whole Microsoft sign-in as the frontend runs it.
func (b *browser) signIn(iss *oidctest.Issuer, u oidctest.User) apiResponse {
	b.t.Helper()
	nonce := b.start()
	tok, err := iss.IDToken(oidctest.SignIn{User: u, Nonce: nonce})
	if err != nil {
		b.t.Fatal(err)
	}
	return b.login(tok)
}

func field(m map[string]any, path ...string) any {
	var v any = m
	for _, p := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[p]
	}
	return v
}

func hasSessionCookie(h http.Header) bool {
	for _, c := range (&http.Response{Header: h}).Cookies() {
		if c.Name == sessionCookieName && c.Value != "" {
			return true
		}
	}
	return false
}

func TestMicrosoftSignInCreatesAStudentThenRecognisesThem(t *testing.T) {
	t.Parallel()
	srv, iss := newMicrosoftServer(t)
	user := oidctest.User{Email: "nueva.estudiante@utpl.edu.ec", Name: "Nueva Estudiante Ríos"}

	b := newBrowser(t, srv)
	res := b.signIn(iss, user)
	if res.status != http.StatusOK {
		t.Fatalf("first sign-in: %d %v", res.status, res.body)
	}
	if field(res.body, "created") != true || field(res.body, "user", "role") != "estudiante" ||
		field(res.body, "user", "mail") != user.Email || field(res.body, "user", "displayName") != user.Name {
		t.Errorf("first sign-in: %v", res.body)
	}
	if !hasSessionCookie(res.header) {
		t.Error("first sign-in set no session cookie")
	}
	if b.cookie("__Secure-simulador_ms_nonce") != "" {
		t.Error("the nonce cookie was not cleared")
	}
	id := field(res.body, "user", "id")
	if s := b.do(http.MethodGet, "/api/session", nil); field(s.body, "user", "id") != id {
		t.Errorf("session after sign-in: %v", s.body)
	}

	other := newBrowser(t, srv)
	res = other.signIn(iss, user)
	if res.status != http.StatusOK || field(res.body, "created") != false || field(res.body, "user", "id") != id {
		t.Errorf("second sign-in: %d %v", res.status, res.body)
	}
}

func TestMicrosoftSignInLinksATutorCreatedByEmail(t *testing.T) {
	t.Parallel()
	srv, iss := newMicrosoftServer(t)
	tutor, err := srv.auth.CreateUser(context.Background(), "tania.tutora@utpl.edu.ec", "clave-segura-123", domain.RoleTutor, "Tania Tutora Ruiz")
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, srv)
	res := b.signIn(iss, oidctest.User{Email: "Tania.Tutora@UTPL.edu.ec", Name: "Tania Tutora Ruiz"})
	if res.status != http.StatusOK {
		t.Fatalf("sign-in: %d %v", res.status, res.body)
	}
	if field(res.body, "created") != false || field(res.body, "user", "id") != tutor.ID ||
		field(res.body, "user", "role") != "tutor" || field(res.body, "access", "admin") != true {
		t.Errorf("tutor sign-in: %v", res.body)
	}
	// The password still works: linking added a way in, it took none away.
	pw := newBrowser(t, srv).do(http.MethodPost, "/api/auth/login",
		map[string]string{"email": "tania.tutora@utpl.edu.ec", "password": "clave-segura-123"})
	if pw.status != http.StatusOK {
		t.Errorf("password sign-in after linking: %d %v", pw.status, pw.body)
	}
}

// F-14: a Microsoft account is linked by tid:oid once known; before that
// only an address the tenant verifies links it to an existing profile
// (or names a new one). The email claim alone, which a directory
// administrator can set to anyone's address, does not.
func TestMicrosoftLinksByObjectIDAndOnlyVerifiedAddresses(t *testing.T) {
	t.Parallel()
	srv, iss := newMicrosoftServer(t)
	ctx := context.Background()
	tutor, err := srv.auth.CreateUser(ctx, "tania.tutora@utpl.edu.ec", "clave-segura-123", domain.RoleTutor, "Tania Tutora Ruiz")
	if err != nil {
		t.Fatal(err)
	}
	// An account of the tenant whose mail attribute was set to the
	// tutor's address, with a user name in another domain.
	impostor := oidctest.User{Email: "tania.tutora@utpl.edu.ec", PreferredUsername: "impostor@contoso.onmicrosoft.com",
		Name: "Impostor", OID: "99999999-0000-4000-8000-000000000001"}
	res := newBrowser(t, srv).signIn(iss, impostor)
	if res.status != http.StatusForbidden || field(res.body, "error", "code") != "microsoft_unverified_email" || hasSessionCookie(res.header) {
		t.Fatalf("unverified email claim: %d %v", res.status, res.body)
	}
	stranger := oidctest.User{Email: "nadie@utpl.edu.ec", PreferredUsername: "nadie@contoso.onmicrosoft.com", OID: "99999999-0000-4000-8000-000000000009"}
	if res := newBrowser(t, srv).signIn(iss, stranger); res.status != http.StatusForbidden {
		t.Fatalf("a new account without a verified address: %d %v", res.status, res.body)
	}

	// S3-05: xms_edov says the tenant owns the email's domain, not that
	// this account owns the mailbox: it never links an existing profile,
	// and a user name in MS_EMAIL_DOMAINS wins over the mail attribute.
	edov := oidctest.User{Email: "Tania.Tutora@utpl.edu.ec", PreferredUsername: "ttutora@contoso.onmicrosoft.com", EmailVerified: true,
		Name: "Impostora", OID: "11111111-0000-4000-8000-000000000012"}
	if res := newBrowser(t, srv).signIn(iss, edov); res.status != http.StatusForbidden || hasSessionCookie(res.header) {
		t.Fatalf("email with xms_edov naming a tutor: %d %v", res.status, res.body)
	}
	mallory := oidctest.User{Email: "tania.tutora@utpl.edu.ec", PreferredUsername: "mallory.estudiante@utpl.edu.ec", EmailVerified: true,
		Name: "Mallory", OID: "11111111-0000-4000-8000-000000000013"}
	res = newBrowser(t, srv).signIn(iss, mallory)
	if res.status != http.StatusOK || field(res.body, "user", "id") == tutor.ID || field(res.body, "user", "mail") != "mallory.estudiante@utpl.edu.ec" ||
		field(res.body, "user", "role") != "estudiante" {
		t.Fatalf("a mail attribute naming a tutor got: %d %v", res.status, res.body)
	}
	partner := oidctest.User{Email: "Ana@Partner.org", PreferredUsername: "ana@contoso.onmicrosoft.com", EmailVerified: true,
		Name: "Ana Socia", OID: "11111111-0000-4000-8000-000000000014"}
	if res := newBrowser(t, srv).signIn(iss, partner); res.status != http.StatusOK || field(res.body, "created") != true ||
		field(res.body, "user", "mail") != "ana@partner.org" {
		t.Fatalf("email with xms_edov outside the university's domains: %d %v", res.status, res.body)
	}
	partner.OID = "11111111-0000-4000-8000-000000000015" // another account with the same mail attribute
	if res := newBrowser(t, srv).signIn(iss, partner); res.status != http.StatusForbidden {
		t.Fatalf("a second account with the same mail attribute: %d %v", res.status, res.body)
	}

	// The user name in MS_EMAIL_DOMAINS links.
	verified := oidctest.User{Email: "otra@utpl.edu.ec", PreferredUsername: "Tania.Tutora@utpl.edu.ec",
		Name: "Tania Tutora Ruiz", OID: "11111111-0000-4000-8000-000000000002"}
	res = newBrowser(t, srv).signIn(iss, verified)
	if res.status != http.StatusOK || field(res.body, "user", "id") != tutor.ID || field(res.body, "created") != false {
		t.Fatalf("user name in a verified domain: %d %v", res.status, res.body)
	}
	// From now on the object id decides, whatever the address claims say.
	renamed := verified
	renamed.Email, renamed.PreferredUsername, renamed.EmailVerified = "otra.persona@utpl.edu.ec", "otra.persona@utpl.edu.ec", false
	res = newBrowser(t, srv).signIn(iss, renamed)
	if res.status != http.StatusOK || field(res.body, "user", "id") != tutor.ID {
		t.Fatalf("same oid, other address: %d %v", res.status, res.body)
	}
	noEmail := verified
	noEmail.Email, noEmail.PreferredUsername = "", ""
	b := newBrowser(t, srv)
	tok, err := iss.IDToken(oidctest.SignIn{User: noEmail, Nonce: b.start(), NoEmail: true})
	if err != nil {
		t.Fatal(err)
	}
	if res := b.login(tok); res.status != http.StatusOK || field(res.body, "user", "id") != tutor.ID {
		t.Fatalf("same oid, no address at all: %d %v", res.status, res.body)
	}

	// A user name in MS_EMAIL_DOMAINS is verified: a new profile.
	student := oidctest.User{PreferredUsername: "Nuevo.Alumno@UTPL.edu.ec", Name: "Nuevo Alumno", OID: "22222222-0000-4000-8000-000000000003"}
	res = newBrowser(t, srv).signIn(iss, student)
	if res.status != http.StatusOK || field(res.body, "created") != true || field(res.body, "user", "mail") != "nuevo.alumno@utpl.edu.ec" {
		t.Fatalf("user name in a verified domain: %d %v", res.status, res.body)
	}
	logs := srv.logs.String()
	for _, want := range []string{"event=auth.login.refused", "reason=microsoft_unverified_email", "event=auth.microsoft.linked",
		"verifiedBy=email+xms_edov", "event=auth.microsoft.profile_created", "verifiedBy=preferred_username", "method=microsoft"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
}

func TestMicrosoftSignInNeedsTheStartCookiesNonce(t *testing.T) {
	t.Parallel()
	srv, iss := newMicrosoftServer(t)
	user := oidctest.User{Email: "alguien@utpl.edu.ec", Name: "Alguien"}
	refused := func(t *testing.T, b *browser, res apiResponse) {
		t.Helper()
		if res.status != http.StatusUnauthorized || field(res.body, "error", "code") != "microsoft_token_rejected" {
			t.Errorf("got %d %v, want 401 microsoft_token_rejected", res.status, res.body)
		}
		if hasSessionCookie(res.header) {
			t.Error("a refused sign-in set a session cookie")
		}
		if s := b.do(http.MethodGet, "/api/session", nil); field(s.body, "user") != nil {
			t.Errorf("signed in after a refusal: %v", s.body)
		}
	}

	t.Run("no start", func(t *testing.T) {
		b := newBrowser(t, srv)
		tok, err := iss.IDToken(oidctest.SignIn{User: user, Nonce: "a-nonce-the-server-never-issued"})
		if err != nil {
			t.Fatal(err)
		}
		refused(t, b, b.login(tok))
	})
	t.Run("another nonce", func(t *testing.T) {
		b := newBrowser(t, srv)
		b.start()
		tok, err := iss.IDToken(oidctest.SignIn{User: user, Nonce: "not-the-started-one"})
		if err != nil {
			t.Fatal(err)
		}
		refused(t, b, b.login(tok))
	})
	t.Run("another browser's nonce", func(t *testing.T) {
		victim, attacker := newBrowser(t, srv), newBrowser(t, srv)
		attacker.start()
		tok, err := iss.IDToken(oidctest.SignIn{User: user, Nonce: victim.start()})
		if err != nil {
			t.Fatal(err)
		}
		refused(t, attacker, attacker.login(tok))
	})
	t.Run("the nonce is used once", func(t *testing.T) {
		b := newBrowser(t, srv)
		tok, err := iss.IDToken(oidctest.SignIn{User: user, Nonce: b.start()})
		if err != nil {
			t.Fatal(err)
		}
		if res := b.login(tok); res.status != http.StatusOK {
			t.Fatalf("first use: %d %v", res.status, res.body)
		}
		b.do(http.MethodPost, "/api/auth/logout", nil)
		refused(t, b, b.login(tok))
	})
	t.Run("faulty tokens", func(t *testing.T) {
		for name, s := range map[string]oidctest.SignIn{
			"another tenant": {OtherTenant: true}, "wrong audience": {Audience: "another-app"},
			"expired": {Expired: true}, "bad signature": {UnknownKey: true},
		} {
			t.Run(name, func(t *testing.T) {
				b := newBrowser(t, srv)
				s.User, s.Nonce = user, b.start()
				tok, err := iss.IDToken(s)
				if err != nil {
					t.Fatal(err)
				}
				refused(t, b, b.login(tok))
			})
		}
	})
	// A refused sign-in is the client's problem: an info line, no warning.
	srv.Close()
	if logs := srv.logs.String(); strings.Contains(logs, "level=WARN") || strings.Contains(logs, "level=ERROR") {
		t.Errorf("refused sign-ins logged warnings or errors:\n%s", logs)
	}
}

func TestMicrosoftPublicConfig(t *testing.T) {
	t.Parallel()
	srv, iss := newMicrosoftServer(t)
	res := newBrowser(t, srv).do(http.MethodGet, "/api/config", nil)
	host := strings.TrimPrefix(iss.URL(), "https://")
	if field(res.body, "microsoft", "enabled") != true || field(res.body, "microsoft", "authority") != iss.Authority() ||
		field(res.body, "microsoft", "clientId") != iss.ClientID() || field(res.body, "microsoft", "protocolMode") != "OIDC" {
		t.Errorf("config: %v", res.body["microsoft"])
	}
	if ka, _ := field(res.body, "microsoft", "knownAuthorities").([]any); len(ka) != 1 || ka[0] != host {
		t.Errorf("knownAuthorities = %v, want [%s]", field(res.body, "microsoft", "knownAuthorities"), host)
	}
	if csp := res.header.Get("Content-Security-Policy"); !strings.Contains(csp, "connect-src 'self' "+iss.URL()) {
		t.Errorf("CSP does not let the page reach the issuer: %s", csp)
	}
}

func TestMicrosoftNotConfigured(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, map[string]string{})
	b := newBrowser(t, srv)
	for _, path := range []string{"/api/auth/microsoft/start", "/api/auth/microsoft"} {
		res := b.do(http.MethodPost, path, map[string]string{"idToken": "x"})
		if res.status != http.StatusNotFound || field(res.body, "error", "code") != "microsoft_not_configured" {
			t.Errorf("%s: %d %v", path, res.status, res.body)
		}
	}
	if b.cookie("__Secure-simulador_ms_nonce") != "" {
		t.Error("a nonce cookie was set although Microsoft is not configured")
	}
	if res := b.do(http.MethodGet, "/api/config", nil); field(res.body, "microsoft", "enabled") != false {
		t.Errorf("config: %v", res.body["microsoft"])
	}
}

// An identity provider the server cannot reach is a configuration or
// network problem: the sign-in is refused as usual, and the log says why
// with a warning (refused tokens only make info lines).
func TestMicrosoftUnreachableIssuerIsAWarning(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	authority := "https://" + ln.Addr().String() + "/" + oidctest.DefaultTenantID
	ln.Close()
	srv := newTestServer(t, map[string]string{
		"MS_TENANT_ID": oidctest.DefaultTenantID, "MS_CLIENT_ID": oidctest.DefaultClientID, "MS_AUTHORITY": authority,
		"MS_EMAIL_DOMAINS": "utpl.edu.ec",
	})
	b := newBrowser(t, srv)
	b.start()
	if res := b.login("a.b.c"); res.status != http.StatusUnauthorized || field(res.body, "error", "code") != "microsoft_token_rejected" {
		t.Fatalf("sign-in: %d %v", res.status, res.body)
	}
	if logs := srv.logs.String(); !strings.Contains(logs, "level=WARN") || !strings.Contains(logs, "discovery") {
		t.Fatalf("no warning about the unreachable issuer:\n%s", logs)
	}
}
