package httpapi_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/mail"
	"github.com/utpl/simulador/backend/internal/testsupport/smtptest"
)

// otherSession signs role in once more (another device) and returns the
// new session's cookie and id.
func (e *env) otherSession(role string) (*http.Cookie, string) {
	e.t.Helper()
	token, se, err := e.auth.StartSession(context.Background(), e.users[role], auth.MethodPassword,
		"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1", "198.51.100.7")
	if err != nil {
		e.t.Fatal(err)
	}
	return &http.Cookie{Name: sessionCookieName, Value: token}, se.ID
}

// as sends a request with an explicit cookie (nil: none).
func (e *env) as(ck *http.Cookie, method, path string, body any) *httptest.ResponseRecorder {
	e.t.Helper()
	saved := e.cookies
	e.cookies = map[string]*http.Cookie{"custom": ck}
	defer func() { e.cookies = saved }()
	return e.do("custom", method, path, body)
}

// putInOtherTutorsGroup makes the student in no group a student of the
// other tutor's active group ("a student of another group").
func putInOtherTutorsGroup(e *env) {
	e.t.Helper()
	g := domain.Group{ID: domain.NewID(), Carrera: "derecho", DocenteEmail: e.users[otherTutor].Mail, Status: domain.GroupActive,
		CreatedAt: time.Now().UTC(), Estudiantes: []domain.GroupStudent{{Email: e.users[studentNoGrp].Mail, AddedAt: time.Now().UTC()}}}
	if err := e.store.CreateGroup(context.Background(), g); err != nil {
		e.t.Fatal(err)
	}
}

func TestAuthorizationAccount(t *testing.T) {
	t.Parallel()
	signedIn := func(ok int) map[string]int {
		return map[string]int{guest: 401, studentNoGrp: ok, studentInGrp: ok, tutor: ok, otherTutor: ok}
	}
	body := func(v any) func(*env) any { return func(*env) any { return v } }
	// With mail, so that a tutor's reset link can be sent.
	runScenarios(t, func(t *testing.T) *env { e, _ := withMail(t); return e }, []scenario{
		// Public: without a pending sign-in or a valid link, nothing happens.
		{method: "POST", path: "/api/auth/login/code", body: body(map[string]string{"code": "123456"}), want: expectAll(401)},
		{method: "POST", path: "/api/auth/password-reset", body: body(map[string]string{"token": "no-es-un-token", "password": "nueva-clave-larga-1"}),
			want: expectAll(400)},

		{method: "GET", path: "/api/me/account", want: signedIn(200)},
		// A wrong current password: refused, but past authorization.
		{method: "PUT", path: "/api/me/password", body: body(map[string]string{"currentPassword": "mala-clave", "newPassword": "nueva-clave-larga-1"}),
			want: signedIn(400)},
		{method: "GET", path: "/api/me/sessions", want: signedIn(200)},
		{method: "POST", path: "/api/me/sessions/end-others", want: signedIn(200)},
		// The member's other session: only the member may end it.
		{method: "DELETE", path: "/api/me/sessions/{session}", fixture: func(e *env) map[string]string {
			_, id := e.otherSession(studentInGrp)
			return map[string]string{"session": id}
		}, want: map[string]int{guest: 401, studentNoGrp: 404, studentInGrp: 204, tutor: 404, otherTutor: 404}},
		// The second factor is for tutors who sign in with a password.
		{method: "POST", path: "/api/me/mfa/totp", body: body(map[string]string{"password": testPassword}),
			want: map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 200, otherTutor: 200}},
		{method: "POST", path: "/api/me/mfa/totp/confirm", body: body(map[string]string{"code": "123456"}),
			want: map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 409, otherTutor: 409}},
		{method: "POST", path: "/api/me/mfa/totp/disable", body: body(map[string]string{"password": testPassword, "code": "123456"}),
			want: signedIn(409)},

		// Reset links: a tutor, for a student of their own active group.
		{method: "POST", path: "/api/admin/students/{student}/password-reset", body: body(map[string]string{}),
			fixture: func(e *env) map[string]string { return map[string]string{"student": e.users[studentInGrp].ID} },
			want:    map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 201, otherTutor: 404}},
		// A student of another tutor's group.
		{method: "POST", path: "/api/admin/students/{student}/password-reset", body: body(map[string]string{}),
			fixture: func(e *env) map[string]string {
				putInOtherTutorsGroup(e)
				return map[string]string{"student": e.users[studentNoGrp].ID}
			},
			want: map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 404, otherTutor: 201}},
		// A tutor is nobody's student; an unknown id is not found.
		{method: "POST", path: "/api/admin/students/{student}/password-reset", body: body(map[string]string{}),
			fixture: func(e *env) map[string]string { return map[string]string{"student": e.users[otherTutor].ID} },
			want:    map[string]int{guest: 401, studentNoGrp: 403, studentInGrp: 403, tutor: 404, otherTutor: 404}},
	})
}

func TestChangePasswordEndsTheOtherSessionsAndKeepsThisOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	phone, _ := e.otherSession(studentInGrp)
	for _, tc := range []struct {
		body map[string]string
		code string
	}{
		{map[string]string{"currentPassword": testPassword, "newPassword": "password123"}, "weak_password"},
		{map[string]string{"currentPassword": testPassword, "newPassword": ""}, "missing_password"},
		{map[string]string{"currentPassword": "", "newPassword": "nueva-clave-larga-1"}, "missing_password"},
		{map[string]string{"currentPassword": "mala-clave", "newPassword": "nueva-clave-larga-1"}, "wrong_password"},
	} {
		res := e.do(studentInGrp, "PUT", "/api/me/password", tc.body)
		if got := decode[apiError](t, res); res.Code != 400 || got.Error.Code != tc.code || got.Error.Message == "" {
			t.Fatalf("%v = %d %+v; want 400 %s", tc.body, res.Code, got.Error, tc.code)
		}
	}
	res := e.do(studentInGrp, "PUT", "/api/me/password", map[string]string{"currentPassword": testPassword, "newPassword": "nueva-clave-larga-1"})
	if res.Code != 200 || decode[map[string]int](t, res)["sessionsEnded"] != 1 {
		t.Fatalf("change = %d %s", res.Code, res.Body)
	}
	if res := e.do(studentInGrp, "GET", "/api/me/account", nil); res.Code != 200 {
		t.Fatalf("this session after the change = %d", res.Code)
	}
	if res := e.as(phone, "GET", "/api/me/account", nil); res.Code != 401 {
		t.Fatalf("the other session after the change = %d", res.Code)
	}
	login := e.do(guest, "POST", "/api/auth/login", map[string]string{"email": e.users[studentInGrp].Mail, "password": "nueva-clave-larga-1"})
	if login.Code != 200 {
		t.Fatalf("sign-in with the new password = %d", login.Code)
	}
}

// Five wrong current passwords, then the right one waits: the count is in
// the store, so it holds across server instances.
func TestPasswordChangeAttemptsAreRateLimited(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for range 5 {
		e.do(tutor, "PUT", "/api/me/password", map[string]string{"currentPassword": "mala-clave", "newPassword": "nueva-clave-larga-1"})
	}
	// A second server on the same database: another instance.
	other := newEnvOn(t, e)
	res := other.do(tutor, "PUT", "/api/me/password", map[string]string{"currentPassword": testPassword, "newPassword": "nueva-clave-larga-1"})
	if res.Code != 429 || res.Header().Get("Retry-After") == "" || decode[apiError](t, res).Error.Code != "rate_limited" {
		t.Fatalf("sixth try on another instance = %d %s (Retry-After %q)", res.Code, res.Body, res.Header().Get("Retry-After"))
	}
	if !strings.Contains(e.logs.String()+other.logs.String(), "event=ratelimit.exceeded") {
		t.Fatal("no ratelimit.exceeded event")
	}
}

func TestSessionsAreListedAndEnded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	phone, phoneID := e.otherSession(tutor)
	_, laptopID := e.otherSession(tutor)
	type item struct {
		ID, Browser, OS, IP string
		Current             bool
		CreatedAt           time.Time
	}
	list := decode[[]item](t, e.do(tutor, "GET", "/api/me/sessions", nil))
	if len(list) != 3 {
		t.Fatalf("sessions = %+v", list)
	}
	var current item
	for _, s := range list {
		if s.Current {
			current = s
		}
		if s.ID == phoneID && (s.Browser != "Safari" || s.OS != "iPhone" || s.IP != "198.51.100.7" || s.Current) {
			t.Errorf("the phone's session = %+v", s)
		}
	}
	if current.ID == "" || current.ID == phoneID {
		t.Fatalf("no current session marked: %+v", list)
	}
	// No token, no hash: the ids are short and unrelated to the cookie.
	if strings.Contains(e.do(tutor, "GET", "/api/me/sessions", nil).Body.String(), e.cookies[tutor].Value) {
		t.Fatal("the session list shows the token")
	}
	if res := e.do(tutor, "DELETE", "/api/me/sessions/"+current.ID, nil); res.Code != 409 {
		t.Fatalf("ending this session here = %d", res.Code)
	}
	if res := e.do(otherTutor, "DELETE", "/api/me/sessions/"+phoneID, nil); res.Code != 404 {
		t.Fatalf("another user ending it = %d", res.Code)
	}
	if res := e.do(tutor, "DELETE", "/api/me/sessions/"+phoneID, nil); res.Code != 204 {
		t.Fatalf("ending the phone's session = %d %s", res.Code, res.Body)
	}
	if res := e.as(phone, "GET", "/api/me/sessions", nil); res.Code != 401 {
		t.Fatalf("the ended session still works: %d", res.Code)
	}
	if got := decode[map[string]int](t, e.do(tutor, "POST", "/api/me/sessions/end-others", nil)); got["ended"] != 1 {
		t.Fatalf("end-others = %v (the laptop %s)", got, laptopID)
	}
	if list := decode[[]item](t, e.do(tutor, "GET", "/api/me/sessions", nil)); len(list) != 1 || !list[0].Current {
		t.Fatalf("after end-others: %+v", list)
	}
}

type resetResponse struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
	Emailed   bool      `json:"emailed"`
}

// withMail wires e with a real SMTP conversation to a test server.
func withMail(t *testing.T) (*env, *smtptest.Server) {
	t.Helper()
	srv := smtptest.Start(t, smtptest.Options{Username: "envios@utpl.edu.ec", Password: "clave-del-relay"})
	e := newEnv(t, func(c *config.Config) {
		c.Mail = config.Mail{Host: srv.Host, Port: srv.Port, Username: "envios@utpl.edu.ec", Password: "clave-del-relay",
			From: "Simulador <no-reply@utpl.edu.ec>", PublicURL: "https://simulador.utpl.edu.ec"}
	})
	m := mail.NewSMTP(e.cfg.Mail)
	m.TLS = &tls.Config{RootCAs: srv.RootCAs}
	e.mailer = m
	e.wire(t, e.store, t.TempDir())
	return e, srv
}

// mailedResetToken is the token of the reset link in the n-th message.
func mailedResetToken(t *testing.T, srv *smtptest.Server, n int) string {
	t.Helper()
	text := strings.NewReplacer("=\r\n", "", "=3D", "=").Replace(string(srv.Wait(t, n).Data)) // quoted-printable
	m := regexp.MustCompile(`/login#restablecer=([A-Za-z0-9_-]{43})`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no link in:\n%s", text)
	}
	return m[1]
}

func TestTutorResetLinkWorksOnceAndEndsTheStudentsSessions(t *testing.T) {
	t.Parallel()
	e, srv := withMail(t)
	member := e.users[studentInGrp]
	res := e.do(tutor, "POST", "/api/admin/students/"+member.ID+"/password-reset", map[string]string{})
	link := decode[resetResponse](t, res)
	if res.Code != 201 || link.Token != "" || !link.Emailed || time.Until(link.ExpiresAt) > time.Hour || time.Until(link.ExpiresAt) < 59*time.Minute {
		t.Fatalf("issue = %d %s", res.Code, res.Body)
	}
	token := mailedResetToken(t, srv, 1)
	use := func(token, password string) *httptest.ResponseRecorder {
		return e.do(guest, "POST", "/api/auth/password-reset", map[string]string{"token": token, "password": password})
	}
	if res := use(token, "12345678"); res.Code != 400 || decode[apiError](t, res).Error.Code != "weak_password" {
		t.Fatalf("weak password = %d %s", res.Code, res.Body)
	}
	if res := use(token, "nueva-clave-larga-1"); res.Code != 204 {
		t.Fatalf("use = %d %s", res.Code, res.Body)
	}
	if res := e.do(studentInGrp, "GET", "/api/me/account", nil); res.Code != 401 {
		t.Fatalf("the student's session after the reset = %d", res.Code)
	}
	res = use(token, "otra-clave-larga-2")
	if got := decode[apiError](t, res); res.Code != 400 || got.Error.Code != "reset_link_used" || !strings.Contains(got.Error.Message, "ya se usó") {
		t.Fatalf("second use = %d %+v", res.Code, got.Error)
	}
	if res := e.do(guest, "POST", "/api/auth/login", map[string]string{"email": member.Mail, "password": "nueva-clave-larga-1"}); res.Code != 200 {
		t.Fatalf("sign-in with the new password = %d", res.Code)
	}
	logs := e.logs.String()
	for _, want := range []string{"event=auth.password.reset_issued", "delivery=email", "event=auth.password.reset_used", "event=auth.password.reset_failure reason=used"} {
		if !strings.Contains(logs, want) && !regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(want), " ", ".* ")).MatchString(logs) {
			t.Errorf("the log lacks %q", want)
		}
	}
	if strings.Contains(logs, token) || strings.Contains(logs, "nueva-clave-larga-1") || strings.Contains(logs, "clave-del-relay") {
		t.Fatal("the log holds the reset token, the new password or the relay's password")
	}
}

// S3-01: the tutor gets no link to pass on (it goes only to the student's
// address), and without mail there is no link at all.
func TestS301TheTutorNeverSeesTheResetLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	member := e.users[studentInGrp]
	for _, body := range []map[string]string{{}, {"delivery": "link"}} {
		res := e.do(tutor, "POST", "/api/admin/students/"+member.ID+"/password-reset", body)
		if got := decode[apiError](t, res); res.Code != 409 || got.Error.Code != "mail_not_configured" || strings.Contains(res.Body.String(), "token") {
			t.Fatalf("a link without mail (%v) = %d %s", body, res.Code, res.Body)
		}
	}
}

func TestTutorResetLinkByEmail(t *testing.T) {
	t.Parallel()
	e, srv := withMail(t)
	if cfg := decode[map[string]any](t, e.do(guest, "GET", "/api/config", nil)); cfg["mail"].(map[string]any)["enabled"] != true {
		t.Fatalf("config = %v", cfg)
	}
	res := e.do(tutor, "POST", "/api/admin/students/"+e.users[studentInGrp].ID+"/password-reset", map[string]string{"delivery": "email"})
	if got := decode[resetResponse](t, res); res.Code != 201 || !got.Emailed || got.Token != "" {
		t.Fatalf("e-mail = %d %s", res.Code, res.Body)
	}
	msg := srv.Wait(t, 1)
	text := string(msg.Data)
	if msg.To[0] != "con.grupo@utpl.edu.ec" || !msg.TLS || msg.AuthUser != "envios@utpl.edu.ec" ||
		!strings.Contains(text, "https://simulador.utpl.edu.ec/login#restablecer=") {
		t.Fatalf("message %+v:\n%s", msg, text)
	}
	if logs := e.logs.String(); strings.Contains(logs, "clave-del-relay") || !strings.Contains(logs, "delivery=email") {
		t.Fatalf("log:\n%s", logs)
	}
}

func totpCode(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, at, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTOTPSignInTakesTwoSteps(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	setup := decode[struct{ Secret, URI, QR string }](t, e.do(tutor, "POST", "/api/me/mfa/totp", map[string]string{"password": testPassword}))
	if len(setup.Secret) != 32 || !strings.HasPrefix(setup.URI, "otpauth://totp/Simulador%20Complexivo:tutor@utpl.edu.ec?") ||
		!strings.HasPrefix(setup.QR, "data:image/png;base64,") {
		t.Fatalf("setup = %+v", setup)
	}
	res := e.do(tutor, "POST", "/api/me/mfa/totp/confirm", map[string]string{"code": totpCode(t, setup.Secret, time.Now())})
	codes := decode[struct{ RecoveryCodes []string }](t, res).RecoveryCodes
	if res.Code != 200 || len(codes) != 10 {
		t.Fatalf("confirm = %d %s", res.Code, res.Body)
	}

	// The password alone opens no session: the sign-in waits on the server.
	login := e.do(guest, "POST", "/api/auth/login", map[string]string{"email": "tutor@utpl.edu.ec", "password": testPassword})
	var pending *http.Cookie
	for _, c := range login.Result().Cookies() {
		if c.Name == sessionCookieName && c.Value != "" {
			t.Fatal("a session before the code")
		}
		if c.Name == "__Host-simulador_mfa" {
			pending = c
		}
	}
	if login.Code != 200 || decode[map[string]any](t, login)["mfaRequired"] != true || pending == nil || !pending.HttpOnly ||
		pending.SameSite != http.SameSiteStrictMode || !pending.Secure || pending.Path != "/" {
		t.Fatalf("password step = %d %s, cookie %+v", login.Code, login.Body, pending)
	}
	// The code of the next step (the enrolment used this one).
	next := totpCode(t, setup.Secret, time.Now().Add(30*time.Second))
	if res := e.as(pending, "POST", "/api/auth/login/code", map[string]string{"code": "000000"}); res.Code != 400 {
		t.Fatalf("wrong code = %d %s", res.Code, res.Body)
	}
	res = e.as(pending, "POST", "/api/auth/login/code", map[string]string{"code": next})
	if res.Code != 200 || decode[map[string]any](t, res)["user"] == nil {
		t.Fatalf("code step = %d %s", res.Code, res.Body)
	}
	sessionCookie(t, res)
	if res := e.as(pending, "POST", "/api/auth/login/code", map[string]string{"code": next}); res.Code != 401 {
		t.Fatalf("the pending sign-in used again = %d", res.Code)
	}

	// A recovery code, in a fresh sign-in.
	login = e.do(guest, "POST", "/api/auth/login", map[string]string{"email": "tutor@utpl.edu.ec", "password": testPassword})
	for _, c := range login.Result().Cookies() {
		if c.Name == "__Host-simulador_mfa" {
			pending = c
		}
	}
	if res := e.as(pending, "POST", "/api/auth/login/code", map[string]string{"code": next}); res.Code != 400 {
		t.Fatalf("a used TOTP code = %d", res.Code)
	}
	if res := e.as(pending, "POST", "/api/auth/login/code", map[string]string{"code": codes[0]}); res.Code != 200 {
		t.Fatalf("recovery code = %d %s", res.Code, res.Body)
	}
	if acct := decode[struct {
		MFA struct {
			Enabled           bool
			RecoveryCodesLeft int
		}
	}](t, e.do(tutor, "GET", "/api/me/account", nil)); !acct.MFA.Enabled || acct.MFA.RecoveryCodesLeft != 9 {
		t.Fatalf("account = %v", acct)
	}
	logs := e.logs.String()
	for _, want := range []string{"event=auth.mfa.enrolment_started", "event=auth.mfa.enabled", "event=auth.mfa.challenge",
		"method=password+totp", "method=password+recovery_code", "event=auth.mfa.recovery_code_used", "reason=replayed_code"} {
		if !strings.Contains(logs, want) {
			t.Errorf("the log lacks %q", want)
		}
	}
	for _, secret := range append([]string{setup.Secret, next, testPassword}, codes...) {
		if strings.Contains(logs, secret) {
			t.Fatalf("the log holds a secret: %q", secret)
		}
	}
}

func TestTutorsRequireMicrosoftRefusesTheirPasswordSignIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *config.Config) { c.TutorsRequireMicrosoft = true })
	res := e.do(guest, "POST", "/api/auth/login", map[string]string{"email": "tutor@utpl.edu.ec", "password": testPassword})
	got := decode[apiError](t, res)
	if res.Code != 403 || got.Error.Code != "tutor_requires_microsoft" || !strings.Contains(got.Error.Message, "Iniciar con UTPL") {
		t.Fatalf("tutor password = %d %+v", res.Code, got.Error)
	}
	// A wrong password still gets the usual text: the role is not revealed.
	res = e.do(guest, "POST", "/api/auth/login", map[string]string{"email": "tutor@utpl.edu.ec", "password": "mala-clave"})
	if got := decode[apiError](t, res); got.Error.Message != "El correo o la constraseña son incorrectos" {
		t.Fatalf("wrong tutor password = %d %+v", res.Code, got.Error)
	}
	if res := e.do(guest, "POST", "/api/auth/login", map[string]string{"email": "con.grupo@utpl.edu.ec", "password": testPassword}); res.Code != 200 {
		t.Fatalf("a student = %d", res.Code)
	}
	if !strings.Contains(e.logs.String(), "reason=tutor_requires_microsoft") {
		t.Fatal("no refusal event")
	}
}
