package httpapi_test

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/testsupport/oidctest"
)

// S3-10: a Microsoft ID token signs in once. Its nonce must be one the
// server issued and not yet took: replaying a captured token with a
// self-made nonce cookie signs nobody in.
func TestS310AMicrosoftIDTokenCannotBeReplayed(t *testing.T) {
	t.Parallel()
	srv, iss := newMicrosoftServer(t)
	owner := newBrowser(t, srv)
	nonce := owner.start()
	tok, err := iss.IDToken(oidctest.SignIn{User: oidctest.User{Email: "victima@utpl.edu.ec", Name: "Víctima Ríos"}, Nonce: nonce})
	if err != nil {
		t.Fatal(err)
	}
	if res := owner.login(tok); res.status != http.StatusOK {
		t.Fatalf("the owner's sign-in: %d %v", res.status, res.body)
	}
	for range 2 {
		thief := newBrowser(t, srv)
		thief.client.Jar.SetCookies(thief.jarURL(), []*http.Cookie{{Name: "__Secure-simulador_ms_nonce", Value: nonce, Path: "/api/auth/microsoft", Secure: true}})
		if res := thief.login(tok); res.status != http.StatusUnauthorized {
			t.Fatalf("a replayed token with a self-made nonce cookie: %d %v", res.status, res.body)
		}
	}
	// A nonce the server never issued, in a fresh token.
	forged, err := iss.IDToken(oidctest.SignIn{User: oidctest.User{Email: "victima@utpl.edu.ec", Name: "Víctima Ríos"}, Nonce: "inventado-por-el-atacante"})
	if err != nil {
		t.Fatal(err)
	}
	thief := newBrowser(t, srv)
	thief.client.Jar.SetCookies(thief.jarURL(), []*http.Cookie{{Name: "__Secure-simulador_ms_nonce", Value: "inventado-por-el-atacante", Path: "/api/auth/microsoft", Secure: true}})
	if res := thief.login(forged); res.status != http.StatusUnauthorized {
		t.Fatalf("a nonce the server never issued: %d %v", res.status, res.body)
	}
}

// S3-17: behind Firebase Hosting the session cookie is an unprefixed
// __session, which a sibling host can toss: a request with two of them is
// a guest's, whichever is first. And starting a Microsoft sign-in ends
// the session whose cookie the nonce replaces.
func TestS317DuplicateSessionCookiesSignNobodyIn(t *testing.T) {
	t.Parallel()
	iss := oidctest.New(t, oidctest.Options{})
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := iss.WriteCAFile(ca); err != nil {
		t.Fatal(err)
	}
	srv := newTestServer(t, map[string]string{"MS_TENANT_ID": iss.TenantID(), "MS_CLIENT_ID": iss.ClientID(), "MS_AUTHORITY": iss.Authority(),
		"MS_CA_FILE": ca, "MS_EMAIL_DOMAINS": "utpl.edu.ec", "FIREBASE_HOSTING": "true"})
	sessionOf := func(email string) string {
		if _, err := srv.auth.CreateUser(t.Context(), email, "clave-segura-123", "estudiante", "Alguien"); err != nil {
			t.Fatal(err)
		}
		b := behindHosting(t, srv)
		if res := b.do(http.MethodPost, "/api/auth/login", map[string]string{"email": email, "password": "clave-segura-123"}); res.status != http.StatusOK {
			t.Fatalf("login %s: %d %v", email, res.status, res.body)
		}
		return b.cookie("__session")
	}
	victim, attacker := sessionOf("victima@utpl.edu.ec"), sessionOf("atacante@utpl.edu.ec")
	who := func(cookie string) string {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/session", nil)
		req.Header.Set("Cookie", cookie)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b strings.Builder
		buf := make([]byte, 4096)
		for {
			n, err := res.Body.Read(buf)
			b.Write(buf[:n])
			if err != nil {
				break
			}
		}
		return b.String()
	}
	if got := who("__session=" + victim); !strings.Contains(got, "victima@utpl.edu.ec") {
		t.Fatalf("one cookie: %s", got)
	}
	if got := who("__session=" + attacker + "; __session=" + victim); strings.Contains(got, "@utpl.edu.ec") {
		t.Fatalf("two __session cookies, the attacker's first: %s", got)
	}

	b := behindHosting(t, srv)
	if res := b.do(http.MethodPost, "/api/auth/login", map[string]string{"email": "victima@utpl.edu.ec", "password": "clave-segura-123"}); res.status != http.StatusOK {
		t.Fatalf("login: %d %v", res.status, res.body)
	}
	replaced := b.cookie("__session")
	if res := b.do(http.MethodPost, "/api/auth/microsoft/start", nil); res.status != http.StatusOK {
		t.Fatalf("start: %d %v", res.status, res.body)
	}
	if got := who("__session=" + replaced); strings.Contains(got, "@utpl.edu.ec") {
		t.Fatalf("the session the nonce replaced still signs in: %s", got)
	}
}
