package oidctest_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/utpl/simulador/backend/internal/testsupport/oidctest"
)

const appOrigin = "http://127.0.0.1:5555"

// codeFlow runs authorize (as a browser would follow it) and returns the
// redirect's parameters.
func authorize(t *testing.T, iss *oidctest.Issuer, mode, challenge string) url.Values {
	t.Helper()
	q := url.Values{
		"client_id": {iss.ClientID()}, "response_type": {"code"}, "redirect_uri": {appOrigin + "/auth-popup.html"},
		"scope": {"user.read openid profile offline_access"}, "state": {"st-1"}, "nonce": {"n-1"},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"}, "response_mode": {mode},
	}
	res, err := iss.Client().Get(iss.Authority() + "/oauth2/v2.0/authorize?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound {
		t.Fatalf("authorize: status %d", res.StatusCode)
	}
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	if got := loc.Scheme + "://" + loc.Host + loc.Path; got != appOrigin+"/auth-popup.html" {
		t.Fatalf("redirected to %s", got)
	}
	if mode == "fragment" {
		v, err := url.ParseQuery(loc.Fragment)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	return loc.Query()
}

func redeem(t *testing.T, iss *oidctest.Issuer, code, verifier, origin string) (int, map[string]any, http.Header) {
	t.Helper()
	form := url.Values{"grant_type": {"authorization_code"}, "client_id": {iss.ClientID()}, "code": {code},
		"redirect_uri": {appOrigin + "/auth-popup.html"}, "code_verifier": {verifier}}
	req, _ := http.NewRequest(http.MethodPost, iss.Authority()+"/oauth2/v2.0/token", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	res, err := iss.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, body, res.Header
}

func challengeOf(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

func TestAuthorizationCodeFlowWithPKCE(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{})
	ctx := oidc.ClientContext(context.Background(), iss.Client())
	provider, err := oidc.NewProvider(ctx, iss.Issuer())
	if err != nil {
		t.Fatal(err)
	}
	verifier := provider.Verifier(&oidc.Config{ClientID: iss.ClientID()})

	for _, mode := range []string{"fragment", "query"} {
		t.Run(mode, func(t *testing.T) {
			iss.SetNext(oidctest.SignIn{User: oidctest.User{Email: "ana@utpl.edu.ec", Name: "Ana Pérez"}})
			const pkce = "a-verifier-that-is-long-enough-for-pkce-0123456789"
			got := authorize(t, iss, mode, challengeOf(pkce))
			if got.Get("state") != "st-1" || got.Get("code") == "" {
				t.Fatalf("redirect params %v", got)
			}
			if status, body, _ := redeem(t, iss, got.Get("code"), "wrong-verifier-wrong-verifier-wrong-verifier", appOrigin); status != 400 || body["error"] != "invalid_grant" {
				t.Fatalf("wrong verifier: %d %v", status, body)
			}
			// The failed attempt used the code up, as Entra does.
			got = authorize(t, iss, mode, challengeOf(pkce))
			if status, body, _ := redeem(t, iss, got.Get("code"), pkce, "https://evil.example"); status != 400 || body["error"] != "invalid_request" {
				t.Fatalf("foreign origin: %d %v", status, body)
			}
			iss.SetNext(oidctest.SignIn{User: oidctest.User{Email: "ana@utpl.edu.ec", Name: "Ana Pérez"}})
			got = authorize(t, iss, mode, challengeOf(pkce))
			status, body, hdr := redeem(t, iss, got.Get("code"), pkce, appOrigin)
			if status != 200 {
				t.Fatalf("token: %d %v", status, body)
			}
			if hdr.Get("Access-Control-Allow-Origin") != appOrigin {
				t.Errorf("CORS header %q", hdr.Get("Access-Control-Allow-Origin"))
			}
			if _, ok := body["client_info"]; ok {
				t.Error("client_info returned although not requested")
			}
			if body["scope"] != "user.read openid profile" {
				t.Errorf("scope %v", body["scope"])
			}
			tok, err := verifier.Verify(ctx, body["id_token"].(string))
			if err != nil {
				t.Fatal(err)
			}
			var c struct{ Email, Nonce, Tid, Oid, Name string }
			if err := tok.Claims(&c); err != nil {
				t.Fatal(err)
			}
			if c.Email != "ana@utpl.edu.ec" || c.Nonce != "n-1" || c.Tid != iss.TenantID() || c.Oid == "" || c.Name != "Ana Pérez" {
				t.Errorf("claims %+v", c)
			}
			if status, body, _ := redeem(t, iss, got.Get("code"), pkce, appOrigin); status != 400 || body["error"] != "invalid_grant" {
				t.Errorf("second redemption: %d %v", status, body)
			}
		})
	}
}

func TestAuthorizeRefusals(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{})
	// get answers the status and the redirect's Location.
	get := func(q url.Values) (int, string) {
		res, err := iss.Client().Get(iss.Authority() + "/oauth2/v2.0/authorize?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode, res.Header.Get("Location")
	}
	base := func() url.Values {
		return url.Values{"client_id": {iss.ClientID()}, "response_type": {"code"}, "redirect_uri": {appOrigin + "/cb"},
			"scope": {"openid"}, "state": {"s"}, "code_challenge": {challengeOf("v")}, "code_challenge_method": {"S256"}}
	}
	q := base()
	q.Set("client_id", "someone-else")
	if status, _ := get(q); status != 400 {
		t.Errorf("unknown client: %d", status)
	}
	q = base()
	q.Del("code_challenge")
	if status, loc := get(q); status != 302 || !strings.Contains(loc, "error=invalid_request") {
		t.Errorf("no PKCE: %d %s", status, loc)
	}
	iss.SetNext(oidctest.SignIn{Deny: true})
	if _, loc := get(base()); !strings.Contains(loc, "error=access_denied") {
		t.Errorf("deny: %s", loc)
	}
	res, err := iss.Client().Get(iss.URL() + "/another-tenant/v2.0/.well-known/openid-configuration")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("unknown tenant: %d", res.StatusCode)
	}
}

func TestControlAPI(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{Control: true})
	res, err := iss.Client().Post(iss.URL()+"/_control/next", "application/json", strings.NewReader(`{"user":{"email":"x@utpl.edu.ec"},"expird":true}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("misspelt fault accepted: %d", res.StatusCode)
	}
	res, err = iss.Client().Post(iss.URL()+"/_control/next", "application/json", strings.NewReader(`{"user":{"email":"x@utpl.edu.ec"},"expired":true}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 204 {
		t.Errorf("next: %d", res.StatusCode)
	}
}

func TestInteractiveSignIn(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{})
	c := iss.Client()
	q := url.Values{"client_id": {iss.ClientID()}, "response_type": {"code"}, "redirect_uri": {appOrigin + "/cb"},
		"scope": {"openid"}, "state": {"s"}, "nonce": {"n"}, "code_challenge": {challengeOf("verifier-0123456789-0123456789-0123456789")},
		"code_challenge_method": {"S256"}, "response_mode": {"fragment"}}
	page := func() string {
		t.Helper()
		iss.SetNext(oidctest.SignIn{Interactive: true}) // zero User: the default user
		res, err := c.Get(iss.Authority() + "/oauth2/v2.0/authorize?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 || !strings.Contains(string(body), oidctest.DefaultUser.Email) {
			t.Fatalf("interactive page: %d %s", res.StatusCode, body)
		}
		m := regexp.MustCompile(`name="ticket" value="([^"]+)"`).FindStringSubmatch(string(body))
		if m == nil {
			t.Fatalf("no ticket in %s", body)
		}
		return m[1]
	}
	answer := func(ticket, action string) string {
		t.Helper()
		res, err := c.PostForm(iss.Authority()+"/oauth2/v2.0/authorize/continue", url.Values{"ticket": {ticket}, "action": {action}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.Header.Get("Location")
	}
	ticket := page()
	if loc := answer(ticket, "approve"); !strings.Contains(loc, "#code=") || !strings.Contains(loc, "state=s") {
		t.Errorf("approve: %s", loc)
	}
	if loc := answer(ticket, "approve"); loc != "" {
		t.Errorf("a used ticket redirected to %s", loc)
	}
	if loc := answer(page(), "deny"); !strings.Contains(loc, "#error=access_denied") {
		t.Errorf("deny: %s", loc)
	}
}
