package oidctest

import (
	"cmp"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// codeLifetime is how long an authorization code may wait to be redeemed.
const codeLifetime = 5 * time.Minute

// grant is an authorization request on its way to a token response.
type grant struct {
	signIn       SignIn
	redirectURI  string
	responseMode string
	state        string
	nonce        string
	scope        string
	challenge    string
	clientInfo   bool
	expires      time.Time
}

func (i *Issuer) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{tenant}/v2.0/.well-known/openid-configuration", i.discovery)
	// MSAL in OIDC protocol mode asks here (authority + /.well-known/...).
	mux.HandleFunc("GET /{tenant}/.well-known/openid-configuration", i.discovery)
	mux.HandleFunc("GET /{tenant}/discovery/v2.0/keys", i.keys)
	mux.HandleFunc("GET /{tenant}/oauth2/v2.0/authorize", i.authorize)
	mux.HandleFunc("POST /{tenant}/oauth2/v2.0/authorize", i.authorize)
	mux.HandleFunc("POST /{tenant}/oauth2/v2.0/authorize/continue", i.authorizeContinue)
	mux.HandleFunc("OPTIONS /{tenant}/oauth2/v2.0/token", i.tokenPreflight)
	mux.HandleFunc("POST /{tenant}/oauth2/v2.0/token", i.token)
	mux.HandleFunc("GET /{tenant}/oauth2/v2.0/logout", i.logout)
	mux.HandleFunc("POST /{tenant}/oauth2/v2.0/logout", i.logout)
	// Browsers ask every host for an icon; answer without noise.
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) })
	if i.opts.Control {
		i.registerControl(mux)
	}
	return mux
}

// tenantOK answers 400 for any tenant but the configured one, as Entra does
// for an unknown tenant.
func (i *Issuer) tenantOK(w http.ResponseWriter, r *http.Request) bool {
	if t := r.PathValue("tenant"); t != i.opts.TenantID {
		oauthError(w, http.StatusBadRequest, "invalid_tenant",
			"AADSTS90002: Tenant '"+t+"' not found. (oidctest serves only "+i.opts.TenantID+")")
		return false
	}
	return true
}

func (i *Issuer) discovery(w http.ResponseWriter, r *http.Request) {
	if !i.tenantOK(w, r) {
		return
	}
	a := i.Authority()
	w.Header().Set("Access-Control-Allow-Origin", "*")
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                i.Issuer(),
		"authorization_endpoint":                a + "/oauth2/v2.0/authorize",
		"token_endpoint":                        a + "/oauth2/v2.0/token",
		"end_session_endpoint":                  a + "/oauth2/v2.0/logout",
		"jwks_uri":                              a + "/discovery/v2.0/keys",
		"response_types_supported":              []string{"code"},
		"response_modes_supported":              []string{"query", "fragment"},
		"grant_types_supported":                 []string{"authorization_code"},
		"subject_types_supported":               []string{"pairwise"},
		"scopes_supported":                      []string{"openid", "profile", "email", "offline_access"},
		"id_token_signing_alg_values_supported": []string{"RS256"},
		"token_endpoint_auth_methods_supported": []string{"none"},
		"code_challenge_methods_supported":      []string{"S256"},
		"claims_supported": []string{"sub", "iss", "aud", "exp", "iat", "nbf", "nonce", "name", "given_name",
			"family_name", "email", "preferred_username", "upn", "xms_edov", "oid", "tid", "ver"},
	})
}

func (i *Issuer) keys(w http.ResponseWriter, r *http.Request) {
	if !i.tenantOK(w, r) {
		return
	}
	w.Header().Set("Access-Control-Allow-Origin", "*")
	writeJSON(w, http.StatusOK, i.jwks())
}

// authorize approves at once as the pending sign-in's user and redirects to
// redirect_uri with code and state, in the fragment or the query as
// response_mode asks. Problems with client_id or redirect_uri get an error
// page (there is nowhere safe to redirect); others are redirected errors.
func (i *Issuer) authorize(w http.ResponseWriter, r *http.Request) {
	if !i.tenantOK(w, r) {
		return
	}
	if err := r.ParseForm(); err != nil {
		errorPage(w, http.StatusBadRequest, "AADSTS900144: the request could not be parsed.")
		return
	}
	q := r.Form
	if q.Get("client_id") != i.opts.ClientID {
		errorPage(w, http.StatusBadRequest, "AADSTS700016: Application with identifier '"+q.Get("client_id")+
			"' was not found in the directory '"+i.opts.TenantID+"'.")
		return
	}
	redirectURI := q.Get("redirect_uri")
	if !i.redirectAllowed(redirectURI) {
		errorPage(w, http.StatusBadRequest, "AADSTS50011: The redirect URI '"+redirectURI+
			"' specified in the request does not match the redirect URIs configured for the application.")
		return
	}
	mode := cmp.Or(q.Get("response_mode"), "query")
	if mode != "query" && mode != "fragment" {
		errorPage(w, http.StatusBadRequest, "response_mode '"+mode+"' is not supported by this test issuer (query, fragment).")
		return
	}
	g := &grant{
		redirectURI:  redirectURI,
		responseMode: mode,
		state:        q.Get("state"),
		nonce:        q.Get("nonce"),
		scope:        q.Get("scope"),
		challenge:    q.Get("code_challenge"),
		clientInfo:   q.Get("client_info") == "1",
	}
	switch {
	case q.Get("response_type") != "code":
		i.redirectError(w, r, g, "unsupported_response_type", "AADSTS700054: only response_type=code is supported.")
		return
	case g.challenge == "" || q.Get("code_challenge_method") != "S256":
		i.redirectError(w, r, g, "invalid_request",
			"AADSTS9002325: Proof Key for Code Exchange (S256) is required for cross-origin authorization code redemption.")
		return
	case !hasScope(g.scope, "openid"):
		i.redirectError(w, r, g, "invalid_scope", "the openid scope is required by this test issuer.")
		return
	}
	g.signIn = i.takeNext()
	switch {
	case g.signIn.Deny:
		i.redirectError(w, r, g, "access_denied", "AADSTS65004: User declined to consent to access the app.")
	case g.signIn.Interactive:
		ticket := randomString(24)
		i.mu.Lock()
		i.pending[ticket] = g
		i.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_ = signInPage.Execute(w, map[string]string{
			"Action": i.Authority() + "/oauth2/v2.0/authorize/continue",
			"Ticket": ticket,
			"Email":  cmp.Or(g.signIn.User.PreferredUsername, g.signIn.User.Email),
			"Name":   g.signIn.User.Name,
		})
	default:
		i.issueCode(w, r, g)
	}
}

// authorizeContinue is the interactive page's answer.
func (i *Issuer) authorizeContinue(w http.ResponseWriter, r *http.Request) {
	if !i.tenantOK(w, r) {
		return
	}
	ticket := r.PostFormValue("ticket")
	i.mu.Lock()
	g := i.pending[ticket]
	delete(i.pending, ticket)
	i.mu.Unlock()
	if g == nil {
		errorPage(w, http.StatusBadRequest, "AADSTS90014: this sign-in page has expired or was already used.")
		return
	}
	if r.PostFormValue("action") != "approve" {
		i.redirectError(w, r, g, "access_denied", "AADSTS65004: User declined to consent to access the app.")
		return
	}
	i.issueCode(w, r, g)
}

func (i *Issuer) issueCode(w http.ResponseWriter, r *http.Request, g *grant) {
	code := randomString(32)
	g.expires = i.opts.Now().Add(codeLifetime)
	i.mu.Lock()
	i.codes[code] = g
	i.mu.Unlock()
	params := url.Values{"code": {code}}
	if g.state != "" {
		params.Set("state", g.state)
	}
	if g.clientInfo {
		params.Set("client_info", clientInfo(g.signIn.User.oid(), i.opts.TenantID))
	}
	redirect(w, r, g.redirectURI, g.responseMode, params)
}

func (i *Issuer) redirectError(w http.ResponseWriter, r *http.Request, g *grant, code, description string) {
	params := url.Values{"error": {code}, "error_description": {description}}
	if g.state != "" {
		params.Set("state", g.state)
	}
	redirect(w, r, g.redirectURI, g.responseMode, params)
}

func redirect(w http.ResponseWriter, r *http.Request, redirectURI, mode string, params url.Values) {
	u, _ := url.Parse(redirectURI) // validated by redirectAllowed
	if mode == "fragment" {
		u.Fragment = ""
		http.Redirect(w, r, u.String()+"#"+params.Encode(), http.StatusFound)
		return
	}
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

func (i *Issuer) redirectAllowed(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return len(i.opts.RedirectURIs) == 0 || slices.Contains(i.opts.RedirectURIs, raw)
}

// tokenPreflight lets a page POST to the token endpoint (MSAL sends
// non-simple headers).
func (i *Issuer) tokenPreflight(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	if o := r.Header.Get("Origin"); o != "" {
		h.Set("Access-Control-Allow-Origin", o)
		h.Set("Access-Control-Allow-Methods", "POST, OPTIONS")
		if rh := r.Header.Get("Access-Control-Request-Headers"); rh != "" {
			h.Set("Access-Control-Allow-Headers", rh)
		}
		h.Set("Access-Control-Max-Age", "600")
		h.Add("Vary", "Origin")
	}
	w.WriteHeader(http.StatusNoContent)
}

// token redeems an authorization code: single use, within codeLifetime, same
// client and redirect URI, and the PKCE verifier must hash to the challenge.
// A browser may redeem it only from the redirect URI's origin (Entra's rule
// for single-page apps); the response carries CORS headers for that origin.
func (i *Issuer) token(w http.ResponseWriter, r *http.Request) {
	origin := r.Header.Get("Origin")
	if origin != "" {
		w.Header().Set("Access-Control-Allow-Origin", origin)
		w.Header().Add("Vary", "Origin")
	}
	if !i.tenantOK(w, r) {
		return
	}
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", "AADSTS900144: the request body must be a form.")
		return
	}
	f := r.PostForm
	if gt := f.Get("grant_type"); gt != "authorization_code" {
		oauthError(w, http.StatusBadRequest, "unsupported_grant_type",
			"AADSTS70003: this test issuer supports only the authorization_code grant (got '"+gt+"').")
		return
	}
	if f.Get("client_id") != i.opts.ClientID {
		oauthError(w, http.StatusBadRequest, "invalid_client",
			"AADSTS700016: Application with identifier '"+f.Get("client_id")+"' was not found.")
		return
	}
	code := f.Get("code")
	i.mu.Lock()
	g := i.codes[code]
	delete(i.codes, code)
	i.mu.Unlock()
	now := i.opts.Now()
	switch {
	case g == nil || now.After(g.expires):
		oauthError(w, http.StatusBadRequest, "invalid_grant",
			"AADSTS70008: The provided authorization code has expired or was already redeemed.")
		return
	case f.Get("redirect_uri") != g.redirectURI:
		oauthError(w, http.StatusBadRequest, "invalid_grant",
			"AADSTS50148: The redirect_uri does not match the one used in the authorization request.")
		return
	case !pkceMatches(f.Get("code_verifier"), g.challenge):
		oauthError(w, http.StatusBadRequest, "invalid_grant",
			"AADSTS501481: The Code_Verifier does not match the code_challenge supplied in the authorization request.")
		return
	case origin != "" && origin != originOf(g.redirectURI):
		oauthError(w, http.StatusBadRequest, "invalid_request",
			"AADSTS9002326: Cross-origin token redemption is permitted only from the redirect URI's origin. Request origin: '"+origin+"'.")
		return
	}

	scope := responseScope(g.scope)
	access, err := i.accessToken(g.signIn, scope, now)
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "server_error", err.Error())
		return
	}
	idToken, err := i.sign(g.signIn.UnknownKey, i.idTokenClaims(g.signIn, cmp.Or(g.signIn.Nonce, g.nonce), now))
	if err != nil {
		oauthError(w, http.StatusInternalServerError, "server_error", err.Error())
		return
	}
	resp := map[string]any{
		"token_type":     "Bearer",
		"scope":          scope,
		"expires_in":     3599,
		"ext_expires_in": 3599,
		"access_token":   access,
		"id_token":       idToken,
	}
	if f.Get("client_info") == "1" {
		resp["client_info"] = clientInfo(g.signIn.User.oid(), i.opts.TenantID)
	}
	writeJSON(w, http.StatusOK, resp)
}

// logout ends nothing (there is no issuer session) and returns to
// post_logout_redirect_uri when it is a valid URI.
func (i *Issuer) logout(w http.ResponseWriter, r *http.Request) {
	if !i.tenantOK(w, r) {
		return
	}
	_ = r.ParseForm()
	target := r.Form.Get("post_logout_redirect_uri")
	if target == "" || !i.redirectAllowed(target) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<!doctype html><html lang="es"><meta charset="utf-8"><title>Sesión cerrada</title><p>Sesión cerrada.</p></html>`))
		return
	}
	params := url.Values{}
	if s := r.Form.Get("state"); s != "" {
		params.Set("state", s)
	}
	redirect(w, r, target, "query", params)
}

func pkceMatches(verifier, challenge string) bool {
	if verifier == "" || challenge == "" {
		return false
	}
	sum := sha256.Sum256([]byte(verifier))
	got := base64.RawURLEncoding.EncodeToString(sum[:])
	return subtle.ConstantTimeCompare([]byte(got), []byte(challenge)) == 1
}

func hasScope(scope, want string) bool {
	return slices.ContainsFunc(strings.Fields(scope), func(s string) bool { return strings.EqualFold(s, want) })
}

// responseScope is the granted scope: what was asked, without
// offline_access (this issuer gives no refresh tokens).
func responseScope(scope string) string {
	var out []string
	for _, s := range strings.Fields(scope) {
		if !strings.EqualFold(s, "offline_access") {
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func oauthError(w http.ResponseWriter, status int, code, description string) {
	writeJSON(w, status, map[string]string{"error": code, "error_description": description})
}

func errorPage(w http.ResponseWriter, status int, message string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_ = errorTemplate.Execute(w, message)
}

var errorTemplate = template.Must(template.New("error").Parse(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Error de inicio de sesión (emisor de prueba)</title></head>
<body><h1>No se pudo iniciar sesión</h1><p id="error">{{.}}</p></body></html>
`))

var signInPage = template.Must(template.New("signin").Parse(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Iniciar sesión (emisor de prueba)</title></head>
<body>
<h1>Iniciar sesión</h1>
<p>Emisor de prueba: continuar como <strong>{{.Name}}</strong> ({{.Email}}).</p>
<form method="post" action="{{.Action}}">
<input type="hidden" name="ticket" value="{{.Ticket}}">
<button type="submit" name="action" value="approve">Continuar</button>
<button type="submit" name="action" value="deny">Cancelar</button>
</form>
</body></html>
`))
