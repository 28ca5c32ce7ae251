package httpapi_test

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/lti"
	"github.com/utpl/simulador/backend/internal/testsupport/ltitest"
)

func TestAuthorizationLTI(t *testing.T) {
	t.Parallel()
	adminOnly := func(tutorStatus, otherStatus int) map[string]int {
		return map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: tutorStatus, otherTutor: otherStatus}
	}
	// The tool's own endpoints answer everyone alike: they check their
	// own state, token or code, never the session.
	everyone := func(status int) map[string]int { return expectAll(status) }
	body := func(v any) func(*env) any { return func(*env) any { return v } }
	// A graded Simulacro of the member, made in the tutor's group.
	gradedFixture := func(e *env) map[string]string {
		a := e.start(studentInGrp, "simulacro")
		done := e.finish(studentInGrp, a, 3)
		e.mustAttempt(tutor, http.MethodPost, "/api/attempts/"+done.ID+"/grade", map[string]any{"levels": levelsAll(done, 3)}, http.StatusOK)
		return map[string]string{"attempt": done.ID}
	}
	runScenarios(t, func(t *testing.T) *env { return newEnv(t) }, []scenario{
		{method: http.MethodGet, path: "/api/admin/lti/courses", want: adminOnly(200, 200)},
		// Neither tutor launched from a course: no course to load.
		{method: http.MethodPost, path: "/api/admin/lti/group", body: body(map[string]string{"courseId": "X"}), want: adminOnly(404, 404)},
		// The tutor's group was loaded from a file (400: not linked); the
		// other tutor has no group (404).
		{method: http.MethodPost, path: "/api/admin/lti/group/update", want: adminOnly(400, 404)},
		{method: http.MethodGet, path: "/api/admin/lti/line-items", want: adminOnly(400, 404)},
		{method: http.MethodPost, path: "/api/admin/lti/line-item", body: body(map[string]string{}), want: adminOnly(400, 404)},
		// An attempt's grade status: its group's tutor only.
		{method: http.MethodGet, path: "/api/admin/lti/attempts/{attempt}/score", fixture: gradedFixture, want: adminOnly(200, 404)},
		{method: http.MethodPost, path: "/api/admin/lti/attempts/{attempt}/score", fixture: gradedFixture, want: adminOnly(400, 404)},
		{method: http.MethodGet, path: "/lti/jwks", want: everyone(200)},
		{method: http.MethodGet, path: "/lti/config.json", want: everyone(200)},
		{method: http.MethodGet, path: "/lti/login", want: everyone(400)},
		{method: http.MethodPost, path: "/lti/login", want: everyone(400)},
		{method: http.MethodPost, path: "/lti/launch", want: everyone(400)},
		{method: http.MethodPost, path: "/lti/continue", want: everyone(400)},
		{method: http.MethodPost, path: "/lti/deep-link", want: everyone(400)},
	})
}

// ltiEnv is the API served on a port, with a fake platform registered.
type ltiEnv struct {
	*env
	server   *httptest.Server
	platform *ltitest.Platform
	client   *http.Client
}

func newLTIEnv(t *testing.T, allowTutors bool, mutate ...func(*config.Config)) *ltiEnv {
	t.Helper()
	e := newEnv(t, mutate...)
	srv := httptest.NewServer(e.handler)
	t.Cleanup(srv.Close)
	p, err := ltitest.Start(ltitest.Options{ToolURL: srv.URL, Host: "localhost"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	info := p.Info()
	if _, err := e.lti.AddPlatform(t.Context(), lti.Registration{Issuer: info.Issuer, ClientID: info.ClientID, DeploymentIDs: []string{info.DeploymentID},
		AuthURL: info.AuthURL, TokenURL: info.TokenURL, JWKSURL: info.JWKSURL, AllowTutors: allowTutors}); err != nil {
		t.Fatal(err)
	}
	p.AddUser(ltitest.User{Sub: "s-ana", Email: "ana.lti@utpl.edu.ec", Name: "Ana Lti", Roles: []string{ltitest.RoleLearner}})
	p.AddUser(ltitest.User{Sub: "s-docente", Email: "docente.lti@utpl.edu.ec", Name: "Diana Docente", Roles: []string{ltitest.RoleInstructor}})
	p.AddCourse(ltitest.Course{ID: "c1", Title: "Derecho Penal", Members: []string{"s-ana", "s-docente"}})
	p.AddCourse(ltitest.Course{ID: "c2", Title: "Derecho Civil", Members: []string{"s-docente"}})
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return &ltiEnv{env: e, server: srv, platform: p, client: client}
}

var (
	formAction = regexp.MustCompile(`action="([^"]+)"`)
	formField  = regexp.MustCompile(`name="([^"]+)" value="([^"]*)"`)
)

// form reads a page's first form: its action and hidden fields.
func form(t *testing.T, page string) (string, url.Values) {
	t.Helper()
	m := formAction.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no form in %s", page)
	}
	v := url.Values{}
	for _, f := range formField.FindAllStringSubmatch(page, -1) {
		v.Set(html.UnescapeString(f[1]), html.UnescapeString(f[2]))
	}
	return html.UnescapeString(m[1]), v
}

func readAll(t *testing.T, res *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// login runs a login initiation at the tool, sending cookies, and
// returns the state cookie it sets and where it sends the browser.
func (le *ltiEnv) login(t *testing.T, m ltitest.Message, cookies ...*http.Cookie) (*http.Cookie, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, le.platform.LoginURL(m), nil)
	for _, c := range cookies {
		req.AddCookie(c)
	}
	res, err := le.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body := readAll(t, res)
	if res.StatusCode != http.StatusFound || len(res.Cookies()) != 1 {
		t.Fatalf("login initiation = %d %v %s", res.StatusCode, res.Cookies(), body)
	}
	c := res.Cookies()[0]
	if c.SameSite != http.SameSiteNoneMode || !c.Secure || !c.HttpOnly || !c.Partitioned || c.Path != "/lti" || c.MaxAge != 600 {
		t.Fatalf("state cookie %+v: want SameSite=None, Secure, HttpOnly, Partitioned, Path=/lti", c)
	}
	return c, res.Header.Get("Location")
}

// launch runs a launch as a browser would, up to the tool's answer to
// the launch: login initiation at the tool (keeping its state cookie
// unless dropCookie), the platform's authorization, and the posted
// id_token. dest is the Sec-Fetch-Dest the browser sends with the launch;
// cookies are the browser's other cookies, sent with both requests.
func (le *ltiEnv) launch(t *testing.T, m ltitest.Message, dest string, dropCookie bool, cookies ...*http.Cookie) *http.Response {
	t.Helper()
	state, auth := le.login(t, m, cookies...)
	res, err := le.client.Get(auth)
	if err != nil {
		t.Fatal(err)
	}
	page := readAll(t, res)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("platform authorization = %d %s", res.StatusCode, page)
	}
	action, fields := form(t, page)
	req, _ := http.NewRequest(http.MethodPost, action, strings.NewReader(fields.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	// The platform's page posts it: a cross-site request.
	req.Header.Set("Origin", le.platform.Info().URL)
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Sec-Fetch-Dest", dest)
	if !dropCookie {
		req.AddCookie(&http.Cookie{Name: state.Name, Value: state.Value})
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	res, err = le.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func sessionOf(res *http.Response) *http.Cookie {
	for _, c := range res.Cookies() {
		if c.Name == sessionCookieName && c.Value != "" {
			return c
		}
	}
	return nil
}

func (le *ltiEnv) sessionUser(t *testing.T, c *http.Cookie) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, le.server.URL+"/api/session", nil)
	req.AddCookie(c)
	res, err := le.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		User map[string]any `json:"user"`
	}
	if err := json.Unmarshal([]byte(readAll(t, res)), &s); err != nil {
		t.Fatal(err)
	}
	return s.User
}

func TestLTILaunchInANewTabSignsInAtOnce(t *testing.T) {
	t.Parallel()
	le := newLTIEnv(t, true)
	res := le.launch(t, ltitest.Message{Sub: "s-ana", Context: "c1", Target: "window"}, "document", false)
	body := readAll(t, res)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != lti.StudentHome {
		t.Fatalf("launch = %d %s %s", res.StatusCode, res.Header.Get("Location"), body)
	}
	ck := sessionOf(res)
	if ck == nil || ck.SameSite != http.SameSiteLaxMode {
		t.Fatalf("session cookie = %+v: a launch never loosens the session cookie", ck)
	}
	if u := le.sessionUser(t, ck); u["mail"] != "ana.lti@utpl.edu.ec" || u["role"] != "estudiante" {
		t.Fatalf("signed in as %+v", u)
	}
	if !strings.Contains(le.logs.String(), "lti launch") {
		t.Fatalf("the launch is not logged: %s", le.logs)
	}
}

func TestLTILaunchInAFrameHandsTheSignInToANewTab(t *testing.T) {
	t.Parallel()
	le := newLTIEnv(t, true)
	for _, tc := range []struct {
		name       string
		dest       string
		dropCookie bool
	}{
		{"in the course's frame", "iframe", false},
		{"in a frame without third-party cookies", "iframe", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := le.launch(t, ltitest.Message{Sub: "s-ana", Context: "c1", Target: "iframe"}, tc.dest, tc.dropCookie)
			page := readAll(t, res)
			if res.StatusCode != http.StatusOK || sessionOf(res) != nil || !strings.Contains(page, "Abrir el simulador") {
				t.Fatalf("launch = %d (session %v) %s", res.StatusCode, sessionOf(res), page)
			}
			// Framable by the platform only; nothing else changes.
			csp := res.Header.Get("Content-Security-Policy")
			if !strings.Contains(csp, "frame-ancestors "+le.platform.Info().URL) || strings.Contains(csp, "'none'") && strings.Contains(csp, "frame-ancestors 'none'") ||
				res.Header.Get("X-Frame-Options") != "" || !strings.Contains(csp, "script-src 'nonce-") {
				t.Fatalf("headers of the framed page: CSP %q, X-Frame-Options %q", csp, res.Header.Get("X-Frame-Options"))
			}
			action, fields := form(t, page)
			if action != "/lti/continue" || fields.Get("code") == "" || !strings.Contains(page, `target="_blank"`) {
				t.Fatalf("hand-off form %s %v", action, fields)
			}
			// The new tab posts the code (same origin) and is signed in.
			req, _ := http.NewRequest(http.MethodPost, le.server.URL+action, strings.NewReader(fields.Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			req.Header.Set("Sec-Fetch-Site", "same-origin")
			cont, err := le.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			readAll(t, cont)
			ck := sessionOf(cont)
			if cont.StatusCode != http.StatusSeeOther || cont.Header.Get("Location") != lti.StudentHome || ck == nil {
				t.Fatalf("continue = %d %s", cont.StatusCode, cont.Header.Get("Location"))
			}
			if cont.Header.Get("X-Frame-Options") != "DENY" {
				t.Fatalf("the new tab's answer is framable: %v", cont.Header)
			}
			// The code was used.
			again, _ := http.NewRequest(http.MethodPost, le.server.URL+action, strings.NewReader(fields.Encode()))
			again.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			res2, err := le.client.Do(again)
			if err != nil {
				t.Fatal(err)
			}
			if p := readAll(t, res2); res2.StatusCode != http.StatusBadRequest || !strings.Contains(p, "caducó o ya se usó") ||
				!strings.Contains(res2.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") {
				t.Fatalf("second use = %d %s", res2.StatusCode, p)
			}
		})
	}
}

// Canvas shows tools under the institution's domain, which its signed
// launch names (launch_presentation.return_url): a valid launch's page may
// be framed there too, even when the registration does not list it.
func TestLTILaunchPageIsFramableWhereTheSignedLaunchSaysItIsShown(t *testing.T) {
	t.Parallel()
	le := newLTIEnv(t, true)
	le.platform.SetNext(&ltitest.Message{Set: map[string]any{"https://purl.imsglobal.org/spec/lti/claim/launch_presentation": map[string]any{
		"document_target": "iframe", "return_url": "https://utpl.instructure.com/courses/7/external_content/success/external_tool_redirect"}}})
	res := le.launch(t, ltitest.Message{Sub: "s-ana", Context: "c1", Target: "iframe"}, "iframe", true)
	readAll(t, res)
	csp := res.Header.Get("Content-Security-Policy")
	if res.StatusCode != http.StatusOK || !strings.Contains(csp, "https://utpl.instructure.com") || !strings.Contains(csp, le.platform.Info().URL) {
		t.Fatalf("launch = %d, CSP %q", res.StatusCode, csp)
	}
	// A refusal has no signed origin to trust: registered origins only.
	le.platform.SetNext(&ltitest.Message{Set: map[string]any{"https://purl.imsglobal.org/spec/lti/claim/version": "1.1",
		"https://purl.imsglobal.org/spec/lti/claim/launch_presentation": map[string]any{"return_url": "https://evil.example/x"}}})
	res = le.launch(t, ltitest.Message{Sub: "s-ana", Context: "c1", Target: "iframe"}, "iframe", true)
	readAll(t, res)
	if csp := res.Header.Get("Content-Security-Policy"); res.StatusCode != http.StatusBadRequest || strings.Contains(csp, "evil.example") {
		t.Fatalf("refused launch = %d, CSP %q", res.StatusCode, csp)
	}
}

func TestLTIRefusalsShowASpanishPageAndLogTheClaim(t *testing.T) {
	t.Parallel()
	le := newLTIEnv(t, true)
	le.platform.SetNext(&ltitest.Message{Set: map[string]any{"https://purl.imsglobal.org/spec/lti/claim/deployment_id": "9:otra"}})
	res := le.launch(t, ltitest.Message{Sub: "s-ana", Context: "c1"}, "iframe", false)
	page := readAll(t, res)
	if res.StatusCode != http.StatusForbidden || !strings.Contains(page, "No se pudo abrir el simulador") ||
		!strings.Contains(page, "identificador de implementación") || sessionOf(res) != nil {
		t.Fatalf("refused launch = %d %s", res.StatusCode, page)
	}
	if !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors "+le.platform.Info().URL) {
		t.Fatalf("the refusal is not shown in the course's frame: %q", res.Header.Get("Content-Security-Policy"))
	}
	logs := le.logs.String()
	if !strings.Contains(logs, "lti launch refused") || !strings.Contains(logs, "claim=https://purl.imsglobal.org/spec/lti/claim/deployment_id") ||
		!strings.Contains(logs, `deployment \"9:otra\" is not registered`) {
		t.Fatalf("log: %s", logs)
	}
}

func TestLTINeverGrantsARoleTheRegistrationDoesNotAllow(t *testing.T) {
	t.Parallel()
	le := newLTIEnv(t, false)
	res := le.launch(t, ltitest.Message{Sub: "s-docente", Context: "c1", Target: "window"}, "document", false)
	page := readAll(t, res)
	if res.StatusCode != http.StatusForbidden || sessionOf(res) != nil || !strings.Contains(page, "habilite a los tutores") {
		t.Fatalf("instructor without --allow-tutors = %d %s", res.StatusCode, page)
	}
	if _, err := le.store.GetUserByMail(t.Context(), "docente.lti@utpl.edu.ec"); err == nil {
		t.Fatal("a refused launch created a profile")
	}
}

func TestLTIStudentsReachNoCourseAndTutorsOnlyTheirs(t *testing.T) {
	t.Parallel()
	le := newLTIEnv(t, true)
	res := le.launch(t, ltitest.Message{Sub: "s-ana", Context: "c1", Target: "window"}, "document", false) //nolint:bodyclose // readAll closes it
	readAll(t, res)
	student := sessionOf(res)
	call := func(c *http.Cookie, method, path, body string) int {
		req, _ := http.NewRequest(method, le.server.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.AddCookie(c)
		r, err := le.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		readAll(t, r)
		return r.StatusCode
	}
	for _, path := range []string{"/api/admin/lti/courses", "/api/admin/group", "/api/admin/lti/line-items"} {
		if r := call(student, http.MethodGet, path, ""); r != http.StatusForbidden {
			t.Fatalf("student launched from a course: GET %s = %d", path, r)
		}
	}
	if r := call(student, http.MethodPost, "/api/admin/lti/group", `{"courseId":"`+domain.LTICourseID(domain.LTIPlatformID(le.platform.Info().Issuer, ltitest.DefaultClientID), "c1")+`"}`); r != http.StatusForbidden {
		t.Fatalf("student loading the course's group = %d", r)
	}

	// The instructor launched from c1 only: c2's roster is out of reach.
	res = le.launch(t, ltitest.Message{Sub: "s-docente", Context: "c1", Target: "window"}, "document", false)
	readAll(t, res)
	if res.Header.Get("Location") != lti.TutorHome {
		t.Fatalf("tutor landing = %s", res.Header.Get("Location"))
	}
	docente := sessionOf(res)
	pid := domain.LTIPlatformID(le.platform.Info().Issuer, ltitest.DefaultClientID)
	if r := call(docente, http.MethodPost, "/api/admin/lti/group", `{"courseId":"`+domain.LTICourseID(pid, "c2")+`","degree":"Derecho"}`); r != http.StatusNotFound {
		t.Fatalf("loading another course = %d", r)
	}
	if r := call(docente, http.MethodPost, "/api/admin/lti/group", `{"courseId":"`+domain.LTICourseID(pid, "c1")+`","degree":"Derecho"}`); r != http.StatusCreated {
		t.Fatalf("loading the tutor's course = %d", r)
	}
}

func TestLTIEndpointsAreNotTheSinglePageApp(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, path := range []string{"/lti/unknown", "/lti/", "/lti/launch/x"} {
		res := e.do(guest, http.MethodGet, path, nil)
		if res.Code != http.StatusNotFound || strings.Contains(res.Body.String(), "<html") {
			t.Fatalf("GET %s = %d %s", path, res.Code, res.Body)
		}
	}
	res := e.do(guest, http.MethodGet, "/lti/config.json", nil)
	var cfg map[string]any
	if err := json.Unmarshal(res.Body.Bytes(), &cfg); err != nil || cfg["oidc_initiation_url"] != "http://example.com/lti/login" ||
		cfg["target_link_uri"] != "http://example.com/lti/launch" || cfg["public_jwk_url"] != "http://example.com/lti/jwks" {
		t.Fatalf("config.json = %s", res.Body)
	}
	res = e.do(guest, http.MethodGet, "/lti/jwks", nil)
	var set struct {
		Keys []map[string]any `json:"keys"`
	}
	if err := json.Unmarshal(res.Body.Bytes(), &set); err != nil || len(set.Keys) != 1 || set.Keys[0]["kty"] != "RSA" || set.Keys[0]["alg"] != "RS256" {
		t.Fatalf("jwks = %s", res.Body)
	}
	for _, private := range []string{`"d"`, `"p"`, `"q"`, `"dp"`, `"dq"`, `"qi"`} {
		if strings.Contains(res.Body.String(), private) {
			t.Fatalf("the key set leaks a private part %s: %s", private, res.Body)
		}
	}
	// Other pages stay unframable.
	if res := e.do(guest, http.MethodGet, "/inicio", nil); res.Header().Get("X-Frame-Options") != "DENY" ||
		!strings.Contains(res.Header().Get("Content-Security-Policy"), "frame-ancestors 'none'") {
		t.Fatalf("/inicio headers: %v", res.Header())
	}
	// A cross-site post is refused on the API, not at the launch (which
	// checks its own state and token).
	if res := e.do(guest, http.MethodPost, "/api/auth/logout", nil, "Sec-Fetch-Site", "cross-site"); res.Code != http.StatusForbidden {
		t.Fatalf("cross-site API post = %d", res.Code)
	}
	if res := e.do(guest, http.MethodPost, "/lti/launch", nil, "Sec-Fetch-Site", "cross-site"); res.Code != http.StatusBadRequest ||
		!strings.Contains(res.Body.String(), "Falta información") {
		t.Fatalf("cross-site launch = %d %s", res.Code, res.Body)
	}
}

// Login CSRF: an attacker keeps their own unused launch (id_token and
// state) and has a page of theirs post it from the victim's browser, which
// never started that login. Posted to a tab, it is refused and signs
// nobody in; no sign-in code is handed out. (Posted into a frame of the
// attacker's page, the hand-off page is not framable there.)
func TestLTILaunchPostedByAnotherBrowserSignsNobodyIn(t *testing.T) {
	t.Parallel()
	le := newLTIEnv(t, true)
	for _, tc := range []struct {
		name   string
		cookie *http.Cookie // the victim's own state cookie, if any
	}{
		{"a browser with no login in flight", nil},
		{"a browser with a login of its own in flight", &http.Cookie{Name: "__Secure-simulador_lti", Value: "lti.estado-propio"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var cookies []*http.Cookie
			if tc.cookie != nil {
				cookies = append(cookies, tc.cookie)
			}
			res := le.launch(t, ltitest.Message{Sub: "s-ana", Context: "c1", Target: "window"}, "document", true, cookies...)
			page := readAll(t, res)
			if res.StatusCode != http.StatusBadRequest || sessionOf(res) != nil || !strings.Contains(page, "otra ventana o navegador") ||
				strings.Contains(page, "/lti/continue") {
				t.Fatalf("a launch posted by another browser = %d (session %v) %s", res.StatusCode, sessionOf(res), page)
			}
		})
	}
	// The attacker's page frames the post: the page that would carry the
	// code may be framed by the platform only.
	res := le.launch(t, ltitest.Message{Sub: "s-ana", Context: "c1", Target: "iframe"}, "iframe", true)
	readAll(t, res)
	csp := res.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors "+le.platform.Info().URL) || strings.Contains(csp, "*") || res.Header.Get("X-Frame-Options") != "" {
		t.Fatalf("a framed hand-off's CSP = %q", csp)
	}
	// Nothing of the attacker's account was signed into.
	if strings.Count(le.logs.String(), `msg="lti launch"`) != 1 {
		t.Fatalf("sign-ins logged: %s", le.logs)
	}
}

// Behind Firebase Hosting only cookies named __session reach the server.
// The login state then rides in a __session cookie of its own under /lti,
// beside (never instead of) the session's, so a launch in a tab is bound
// and signs in at once; two logins in flight keep both states.
func TestLTILaunchBehindFirebaseHostingIsBound(t *testing.T) {
	t.Parallel()
	le := newLTIEnv(t, true, func(c *config.Config) { c.FirebaseHosting = true })
	// The browser is signed in already (its session's __session, Path=/).
	session := &http.Cookie{Name: "__session", Value: "sesion-anterior"}
	other, _ := le.login(t, ltitest.Message{Sub: "s-docente", Context: "c1", Target: "window"}, session)
	if other.Name != "__session" || other.Path != "/lti" || !strings.HasPrefix(other.Value, "lti.") {
		t.Fatalf("state cookie behind Hosting = %+v", other)
	}
	res := le.launch(t, ltitest.Message{Sub: "s-ana", Context: "c1", Target: "window"}, "document", false, session, other)
	page := readAll(t, res)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != lti.StudentHome {
		t.Fatalf("launch behind Hosting = %d %s %s", res.StatusCode, res.Header.Get("Location"), page)
	}
	var ck *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "__session" && c.Path == "/" && c.Value != "" {
			ck = c
		}
		if c.Name == "__session" && c.Path == "/lti" && (c.Value != other.Value || c.MaxAge != 600) {
			t.Fatalf("the other login's state was not kept: %+v", c)
		}
	}
	if ck == nil {
		t.Fatalf("no session behind Hosting: %v", res.Header.Values("Set-Cookie"))
	}
	if u := le.sessionUser(t, ck); u["mail"] != "ana.lti@utpl.edu.ec" {
		t.Fatalf("signed in as %+v", u)
	}
}
