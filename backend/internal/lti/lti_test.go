package lti_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/lti"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/testsupport/ltitest"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
	"github.com/utpl/simulador/backend/internal/testsupport/testclock"
)

var ctx = context.Background()

// fixture is a tool (the lti service on SQLite, its key set served over
// HTTP) and a fake platform registered with it, with a course of two
// learners, an instructor and a teaching assistant.
type fixture struct {
	t        *testing.T
	store    store.Store
	svc      *lti.Service
	groups   *groups.Service
	platform *ltitest.Platform
	toolURL  string
	clock    *testclock.Clock
}

const course = "curso-penal"

func newFixture(t *testing.T, allowTutors bool) *fixture {
	t.Helper()
	st := sqlitetest.Open(t)
	clk := testclock.New(time.Now().UTC().Truncate(time.Second))
	g := groups.NewService(st)
	svc := lti.NewService(st, g, lti.Options{Now: clk.Now})
	if err := svc.Keys().Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	tool := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/lti/jwks" {
			http.NotFound(w, r)
			return
		}
		set, err := svc.Keys().JWKS(r.Context())
		if err != nil {
			http.Error(w, err.Error(), 500)
			return
		}
		_ = json.NewEncoder(w).Encode(set)
	}))
	t.Cleanup(tool.Close)
	p, err := ltitest.Start(ltitest.Options{ToolURL: tool.URL, MemberPageSize: 2, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	info := p.Info()
	if _, err := svc.AddPlatform(ctx, lti.Registration{Issuer: info.Issuer, ClientID: info.ClientID, DeploymentIDs: []string{info.DeploymentID},
		AuthURL: info.AuthURL, TokenURL: info.TokenURL, JWKSURL: info.JWKSURL, AllowTutors: allowTutors}); err != nil {
		t.Fatal(err)
	}
	for _, u := range []ltitest.User{
		{Sub: "s-ana", Email: "ana.perez@utpl.edu.ec", Name: "Ana Pérez", GivenName: "Ana", FamilyName: "Pérez", Roles: []string{ltitest.RoleLearner, ltitest.RoleStudentIns}},
		{Sub: "s-luis", Email: "Luis.Ruiz@utpl.edu.ec", Name: "Luis Ruiz", Roles: []string{ltitest.RoleLearner}},
		{Sub: "s-sin-correo", Name: "Sin Correo", Roles: []string{ltitest.RoleLearner}},
		{Sub: "s-docente", Email: "docente@utpl.edu.ec", Name: "Diana Docente", Roles: []string{ltitest.RoleInstructor}},
		{Sub: "s-ayudante", Email: "ayudante@utpl.edu.ec", Name: "Ayudante", Roles: []string{ltitest.RoleInstructor, ltitest.RoleTA}},
		{Sub: "s-otro", Email: "otro@utpl.edu.ec", Name: "Otro Rol", Roles: []string{"http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"}},
	} {
		p.AddUser(u)
	}
	p.AddCourse(ltitest.Course{ID: course, Title: "Derecho Penal", Label: "DP-1", Members: []string{"s-ana", "s-luis", "s-sin-correo", "s-docente", "s-ayudante"},
		Custom: map[string]string{"carrera": "Derecho"}})
	return &fixture{t: t, store: st, svc: svc, groups: g, platform: p, toolURL: tool.URL, clock: clk}
}

// login runs a login initiation for sub and returns the state and the
// nonce the tool asked the platform for.
func (f *fixture) login(sub string) (state, nonce string) {
	f.t.Helper()
	info := f.platform.Info()
	res, err := f.svc.Login(ctx, lti.LoginRequest{Issuer: info.Issuer, LoginHint: sub, TargetLinkURI: f.toolURL + lti.LaunchPath,
		ClientID: info.ClientID, DeploymentID: info.DeploymentID, ClientAddress: "192.0.2.1"}, f.toolURL)
	if err != nil {
		f.t.Fatal(err)
	}
	u, err := url.Parse(res.Redirect)
	if err != nil {
		f.t.Fatal(err)
	}
	q := u.Query()
	if q.Get("state") != res.State || q.Get("redirect_uri") != f.toolURL+lti.LaunchPath || q.Get("client_id") != info.ClientID ||
		q.Get("response_type") != "id_token" || q.Get("response_mode") != "form_post" || q.Get("scope") != "openid" ||
		q.Get("prompt") != "none" || q.Get("login_hint") != sub || q.Get("nonce") == "" {
		f.t.Fatalf("authentication request %s", res.Redirect)
	}
	return res.State, q.Get("nonce")
}

// launch logs in as m.Sub and posts the platform's token for m (with the
// login's nonce unless m sets one); mutate changes the request.
func (f *fixture) launch(m ltitest.Message, mutate ...func(*lti.LaunchRequest)) (*lti.Launch, error) {
	f.t.Helper()
	state, nonce := f.login(m.Sub)
	if m.Nonce == "" {
		m.Nonce = nonce
	}
	tok, err := f.platform.IDToken(m)
	if err != nil {
		f.t.Fatal(err)
	}
	req := lti.LaunchRequest{IDToken: tok, State: state, StateCookie: state, ToolURL: f.toolURL}
	for _, fn := range mutate {
		fn(&req)
	}
	return f.svc.Launch(ctx, req)
}

func claimOf(err error) string {
	var le *lti.LaunchError
	if errors.As(err, &le) {
		return le.Claim
	}
	return ""
}

const (
	claim = "https://purl.imsglobal.org/spec/lti/claim/"
	dl    = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
)

// Every rule of the launch refuses its broken claim, with the claim named.
func TestLaunchValidationRefusesEachBrokenClaim(t *testing.T) {
	f := newFixture(t, true)
	ana := ltitest.Message{Sub: "s-ana", Context: course}
	with := func(m ltitest.Message, edit func(*ltitest.Message)) ltitest.Message {
		edit(&m)
		return m
	}
	for _, tc := range []struct {
		name   string
		m      ltitest.Message
		mutate func(*lti.LaunchRequest)
		claim  string
	}{
		{"no state", ana, func(r *lti.LaunchRequest) { r.State = "" }, "state"},
		{"unknown state", ana, func(r *lti.LaunchRequest) { r.State, r.StateCookie = "inventado", "" }, "state"},
		{"state cookie of another browser", ana, func(r *lti.LaunchRequest) { r.StateCookie = "otro-estado" }, "state"},
		{"no id_token", ana, func(r *lti.LaunchRequest) { r.IDToken = "" }, "id_token"},
		{"not a JWT", ana, func(r *lti.LaunchRequest) { r.IDToken = "no.es.jwt" }, "id_token"},
		{"HS256 instead of RS256", with(ana, func(m *ltitest.Message) { m.Alg = "HS256" }), nil, "id_token"},
		{"signed with a key the platform does not publish", with(ana, func(m *ltitest.Message) { m.UnknownKey = true }), nil, "signature"},
		{"kid not in the platform's keys", with(ana, func(m *ltitest.Message) { m.KeyID = "desconocida" }), nil, "kid"},
		{"another issuer", with(ana, func(m *ltitest.Message) { m.Set = map[string]any{"iss": "https://otra.plataforma.example"} }), nil, "iss"},
		{"another audience", with(ana, func(m *ltitest.Message) { m.Set = map[string]any{"aud": "otro-cliente", "azp": nil} }), nil, "aud"},
		{"audience array without azp", with(ana, func(m *ltitest.Message) {
			m.Set = map[string]any{"aud": []string{ltitest.DefaultClientID, "otro"}}
			m.Remove = []string{"azp"}
		}), nil, "azp"},
		{"azp of another client", with(ana, func(m *ltitest.Message) { m.Set = map[string]any{"azp": "otro-cliente"} }), nil, "azp"},
		{"expired", with(ana, func(m *ltitest.Message) { m.Shift = -7 * time.Minute }), nil, "exp"},
		{"no exp", with(ana, func(m *ltitest.Message) { m.Remove = []string{"exp"} }), nil, "exp"},
		{"issued in the future", with(ana, func(m *ltitest.Message) { m.Shift = 3 * time.Minute }), nil, "iat"},
		{"no iat", with(ana, func(m *ltitest.Message) { m.Remove = []string{"iat"} }), nil, "iat"},
		{"not valid yet", with(ana, func(m *ltitest.Message) { m.Set = map[string]any{"nbf": time.Now().Add(time.Hour).Unix()} }), nil, "nbf"},
		{"nonce of another login", with(ana, func(m *ltitest.Message) { m.Nonce = "otro-nonce" }), nil, "nonce"},
		{"unregistered deployment", with(ana, func(m *ltitest.Message) { m.Set = map[string]any{claim + "deployment_id": "9:otra"} }), nil, claim + "deployment_id"},
		{"unsupported message type", with(ana, func(m *ltitest.Message) { m.Set = map[string]any{claim + "message_type": "LtiSubmissionReviewRequest"} }), nil, claim + "message_type"},
		{"version 1.1", with(ana, func(m *ltitest.Message) { m.Set = map[string]any{claim + "version": "1.1"} }), nil, claim + "version"},
		{"no version", with(ana, func(m *ltitest.Message) { m.Remove = []string{claim + "version"} }), nil, claim + "version"},
		{"target_link_uri of another tool", with(ana, func(m *ltitest.Message) { m.TargetLinkURI = "https://otra.herramienta.example/lti/launch" }), nil, claim + "target_link_uri"},
		{"target_link_uri not the login's", with(ana, func(m *ltitest.Message) {
			m.Set = map[string]any{claim + "target_link_uri": f.toolURL + "/lti/launch?x=1"}
		}), nil, claim + "target_link_uri"},
		{"resource link without id", with(ana, func(m *ltitest.Message) { m.Remove = []string{claim + "resource_link"} }), nil, claim + "resource_link"},
		{"anonymous (no sub)", with(ana, func(m *ltitest.Message) { m.Remove = []string{"sub"} }), nil, "sub"},
		{"deep linking without a return URL", ltitest.Message{Sub: "s-docente", Context: course, Type: ltitest.DeepLinking,
			Set: map[string]any{dl: map[string]any{"accept_types": []string{"ltiResourceLink"}}}}, nil, dl},
		{"deep linking that accepts no resource links", ltitest.Message{Sub: "s-docente", Context: course, Type: ltitest.DeepLinking,
			Set: map[string]any{dl: map[string]any{"deep_link_return_url": "https://plataforma.example/return", "accept_types": []string{"file"}}}}, nil, dl},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mutate []func(*lti.LaunchRequest)
			if tc.mutate != nil {
				mutate = append(mutate, tc.mutate)
			}
			l, err := f.launch(tc.m, mutate...)
			if got := claimOf(err); got != tc.claim {
				t.Fatalf("launch = %+v, %v; want a refusal naming %q", l, err, tc.claim)
			}
			var le *lti.LaunchError
			errors.As(err, &le)
			if le.Message == "" || le.Reason == "" || le.Status < 400 {
				t.Fatalf("refusal without a page text, a log reason or a status: %+v", le)
			}
		})
	}

	t.Run("a valid launch", func(t *testing.T) {
		l, err := f.launch(ana)
		if err != nil {
			t.Fatal(err)
		}
		if !l.Bound || l.Subject != "s-ana" || l.Email != "ana.perez@utpl.edu.ec" || l.Context == nil || l.Context.Title != "Derecho Penal" ||
			l.Memberships == "" || l.LineItems == "" || l.MessageType != lti.MessageResourceLink || l.Custom["carrera"] != "Derecho" {
			t.Fatalf("launch = %+v", l)
		}
	})
	t.Run("without the state cookie (a frame without third-party cookies) the launch is unbound", func(t *testing.T) {
		l, err := f.launch(ana, func(r *lti.LaunchRequest) { r.StateCookie = "" })
		if err != nil || l.Bound {
			t.Fatalf("launch = %+v, %v; want an unbound launch", l, err)
		}
	})
	t.Run("a state is used once", func(t *testing.T) {
		state, nonce := f.login("s-ana")
		tok, _ := f.platform.IDToken(ltitest.Message{Sub: "s-ana", Context: course, Nonce: nonce})
		req := lti.LaunchRequest{IDToken: tok, State: state, StateCookie: state, ToolURL: f.toolURL}
		if _, err := f.svc.Launch(ctx, req); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.Launch(ctx, req); claimOf(err) != "state" {
			t.Fatalf("replayed launch: %v", err)
		}
	})
	t.Run("a state expires", func(t *testing.T) {
		state, nonce := f.login("s-ana")
		f.clock.Advance(11 * time.Minute)
		tok, _ := f.platform.IDToken(ltitest.Message{Sub: "s-ana", Context: course, Nonce: nonce})
		if _, err := f.svc.Launch(ctx, lti.LaunchRequest{IDToken: tok, State: state, StateCookie: state, ToolURL: f.toolURL}); claimOf(err) != "state" {
			t.Fatalf("late launch: %v", err)
		}
	})
	t.Run("a nonce is used once, even under another state", func(t *testing.T) {
		state, nonce := f.login("s-ana")
		tok, _ := f.platform.IDToken(ltitest.Message{Sub: "s-ana", Context: course, Nonce: nonce})
		if _, err := f.svc.Launch(ctx, lti.LaunchRequest{IDToken: tok, State: state, StateCookie: state, ToolURL: f.toolURL}); err != nil {
			t.Fatal(err)
		}
		// Another instance's login that (by a broken platform, or an
		// attacker who reuses the token) carries the same nonce.
		other := "estado-de-otra-instancia"
		lti.PutLoginState(t, f.store, other, domain.LTIPlatformID(f.platform.Info().Issuer, ltitest.DefaultClientID), nonce,
			f.toolURL+lti.LaunchPath, f.clock.Now().Add(time.Minute))
		if _, err := f.svc.Launch(ctx, lti.LaunchRequest{IDToken: tok, State: other, StateCookie: other, ToolURL: f.toolURL}); claimOf(err) != "nonce" {
			t.Fatalf("reused nonce: %v", err)
		}
	})
	t.Run("an unknown kid refreshes the cached key set", func(t *testing.T) {
		if _, err := f.launch(ana); err != nil { // the set is cached
			t.Fatal(err)
		}
		if err := f.platform.RotateKey(); err != nil {
			t.Fatal(err)
		}
		f.clock.Advance(10 * time.Second)
		if _, err := f.launch(ana); err != nil {
			t.Fatalf("launch signed with the platform's new key: %v", err)
		}
	})
}

func TestLoginInitiationRefusals(t *testing.T) {
	f := newFixture(t, true)
	info := f.platform.Info()
	ok := lti.LoginRequest{Issuer: info.Issuer, LoginHint: "s-ana", TargetLinkURI: f.toolURL + lti.LaunchPath, ClientID: info.ClientID}
	for _, tc := range []struct {
		name  string
		edit  func(*lti.LoginRequest)
		claim string
	}{
		{"no iss", func(r *lti.LoginRequest) { r.Issuer = "" }, "iss"},
		{"no login_hint", func(r *lti.LoginRequest) { r.LoginHint = "" }, "login_hint"},
		{"no target_link_uri", func(r *lti.LoginRequest) { r.TargetLinkURI = "" }, "target_link_uri"},
		{"unregistered issuer", func(r *lti.LoginRequest) { r.Issuer = "https://otra.example" }, "iss"},
		{"unregistered client", func(r *lti.LoginRequest) { r.ClientID = "otro" }, "iss"},
		{"unregistered deployment", func(r *lti.LoginRequest) { r.DeploymentID = "9:otra" }, "lti_deployment_id"},
		{"target on another site", func(r *lti.LoginRequest) { r.TargetLinkURI = "https://evil.example/lti/launch" }, "target_link_uri"},
		{"target on another path", func(r *lti.LoginRequest) { r.TargetLinkURI = f.toolURL + "/admin" }, "target_link_uri"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ok
			tc.edit(&r)
			if _, err := f.svc.Login(ctx, r, f.toolURL); claimOf(err) != tc.claim {
				t.Fatalf("login = %v; want a refusal naming %q", err, tc.claim)
			}
		})
	}
	// Without client_id, the issuer's only registration is used.
	r := ok
	r.ClientID = ""
	if _, err := f.svc.Login(ctx, r, f.toolURL); err != nil {
		t.Fatalf("login without client_id: %v", err)
	}
}

func TestPlatformRegistrationRules(t *testing.T) {
	f := newFixture(t, false)
	good := lti.Registration{Issuer: "https://canvas.instructure.com", ClientID: "10000000000099", DeploymentIDs: []string{"1:a", "1:a", "2:b"},
		AuthURL: "https://sso.canvaslms.com/api/lti/authorize_redirect", TokenURL: "https://sso.canvaslms.com/login/oauth2/token",
		JWKSURL: "https://sso.canvaslms.com/api/lti/security/jwks", FrameOrigins: []string{"https://utpl.instructure.com/courses/1"}}
	for _, tc := range []struct {
		name string
		edit func(*lti.Registration)
	}{
		{"http off loopback", func(r *lti.Registration) { r.TokenURL = "http://sso.canvaslms.com/login/oauth2/token" }},
		{"not a URL", func(r *lti.Registration) { r.JWKSURL = "jwks" }},
		{"no client id", func(r *lti.Registration) { r.ClientID = " " }},
		{"no deployment", func(r *lti.Registration) { r.DeploymentIDs = nil }},
		{"ftp", func(r *lti.Registration) { r.AuthURL = "ftp://example.com/auth" }},
		{"frame origin over http", func(r *lti.Registration) { r.FrameOrigins = []string{"http://utpl.instructure.com"} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := good
			tc.edit(&r)
			if _, err := f.svc.AddPlatform(ctx, r); err == nil {
				t.Fatal("registered")
			}
		})
	}
	p, err := f.svc.AddPlatform(ctx, good)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.DeploymentIDs) != 2 || p.FrameOrigins[0] != "https://utpl.instructure.com" || p.AllowTutors {
		t.Fatalf("registered %+v", p)
	}
	if _, err := f.svc.AddPlatform(ctx, good); err == nil {
		t.Fatal("registered twice")
	}
	origins, err := f.svc.FrameAncestors(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"https://canvas.instructure.com": true, "https://sso.canvaslms.com": true, "https://utpl.instructure.com": true,
		lti.Origin(f.platform.Info().URL): true}
	if len(origins) != len(want) {
		t.Fatalf("frame ancestors = %v", origins)
	}
	for _, o := range origins {
		if !want[o] {
			t.Fatalf("frame ancestors = %v", origins)
		}
	}
	if err := f.svc.RemovePlatform(ctx, good.Issuer, good.ClientID); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.RemovePlatform(ctx, good.Issuer, good.ClientID); err == nil {
		t.Fatal("removed twice")
	}
}

func TestSafeTargetStaysOnTheSite(t *testing.T) {
	for in, want := range map[string]string{
		"/test?modo=simulacro": "/test?modo=simulacro", "/admin/grupo": "/admin/grupo",
		"//evil.example/x": lti.StudentHome, "https://evil.example": lti.StudentHome, "/\\evil.example": lti.StudentHome, "": lti.StudentHome,
	} {
		if got := lti.SafeTarget(in); got != want {
			t.Errorf("SafeTarget(%q) = %q, want %q", in, got, want)
		}
	}
}

// Login initiations are counted per client address in the store, so two
// instances (two services on one store) share the allowance, and the
// count is forgotten when its window ends.
func TestLoginInitiationsPerAddressAreCountedAcrossInstances(t *testing.T) {
	f := newFixture(t, true)
	other := lti.NewService(f.store, f.groups, lti.Options{Now: f.clock.Now})
	info := f.platform.Info()
	r := lti.LoginRequest{Issuer: info.Issuer, LoginHint: "s-ana", TargetLinkURI: f.toolURL + lti.LaunchPath,
		ClientID: info.ClientID, ClientAddress: "203.0.113.7"}
	for i := range 600 {
		svc := f.svc
		if i%2 == 1 {
			svc = other
		}
		if _, err := svc.Login(ctx, r, f.toolURL); err != nil {
			t.Fatalf("login %d: %v", i+1, err)
		}
	}
	for _, svc := range []*lti.Service{f.svc, other} {
		if _, err := svc.Login(ctx, r, f.toolURL); claimOf(err) != "login" {
			t.Fatalf("login 601 = %v; want the refusal for too many", err)
		}
	}
	elsewhere := r
	elsewhere.ClientAddress = "198.51.100.9"
	if _, err := other.Login(ctx, elsewhere, f.toolURL); err != nil {
		t.Fatalf("another address: %v", err)
	}
	f.clock.Advance(10 * time.Minute)
	if _, err := other.Login(ctx, r, f.toolURL); err != nil {
		t.Fatalf("after the window: %v", err)
	}
}
