package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/httpapi"
	"github.com/utpl/simulador/backend/internal/lti"
	"github.com/utpl/simulador/backend/internal/mail"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
	"github.com/utpl/simulador/backend/internal/testsupport/safebuf"
	"github.com/utpl/simulador/backend/internal/testsupport/testclock"
)

// The five roles every endpoint is tested against: a guest, a student in no
// group, a member of the tutor's active group, that tutor, and another tutor.
const (
	guest        = "guest"
	studentNoGrp = "student"
	studentInGrp = "member"
	tutor        = "tutor"
	otherTutor   = "otherTutor"
)

var allRoles = []string{guest, studentNoGrp, studentInGrp, tutor, otherTutor}

const testPassword = "clave-segura-123"

// sessionCookieName is the session cookie with the default COOKIE_SECURE.
const sessionCookieName = "__Host-simulador_session"

// env is a running API with one signed-in client per role.
type env struct {
	t       *testing.T
	cfg     config.Config
	store   store.Store
	auth    *auth.Service
	groups  *groups.Service
	handler http.Handler
	users   map[string]domain.User
	cookies map[string]*http.Cookie
	group   domain.Group // the tutor's active group, with the member student
	exams   *exams.Service
	lti     *lti.Service
	clock   *testclock.Clock
	logs    *safebuf.Buffer // the server's log
	mailer  mail.Sender     // nil unless a test sets one before wire
}

// template is a database with the role users, the group and one session
// per role, built once: argon2 hashing is slow on purpose, so each test
// copies the file instead of signing everyone in again.
var template struct {
	once    sync.Once
	err     error
	path    string
	users   map[string]domain.User
	cookies map[string]*http.Cookie
	group   domain.Group
}

// covered records which routes the authorization tables exercised.
var covered sync.Map

func TestMain(m *testing.M) {
	flag.Parse()
	// Each test has its own database copy, server and clock, and they
	// mostly wait (timeouts, throttles, sleeps of the code under test),
	// not for a core: run more of them at once than -parallel's default,
	// the number of cores, unless it was given. Tests that point
	// STORAGE_EMULATOR_HOST at a fake bucket (t.Setenv) stay serial.
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		if err := flag.Set("test.parallel", "8"); err != nil {
			panic(err)
		}
	}
	code := m.Run()
	// Every endpoint must appear in an authorization table (checked when the
	// whole package runs).
	if code == 0 && flag.Lookup("test.run").Value.String() == "" {
		for _, r := range httpapi.Routes() {
			if _, ok := covered.Load(r.Method + " " + r.Path); !ok {
				fmt.Fprintf(os.Stderr, "route %s %s has no authorization scenario\n", r.Method, r.Path)
				code = 1
			}
		}
	}
	if template.path != "" {
		os.RemoveAll(filepath.Dir(template.path))
	}
	os.Exit(code)
}

func buildTemplate() error {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "httpapi-template-")
	if err != nil {
		return err
	}
	template.path = filepath.Join(dir, "template.db")
	st, err := sqlite.Open(ctx, template.path)
	if err != nil {
		return err
	}
	defer st.Close()
	cfg, err := config.Load(func(string) (string, bool) { return "", false })
	if err != nil {
		return err
	}
	svc := auth.NewService(st, auth.NewSessions(st, cfg.SessionIdle, cfg.SessionMax), nil)
	cat := catalog.NewService(st, cfg.AllowShortTimings)
	if _, err := cat.ImportDemoBank(ctx); err != nil {
		return err
	}
	h := httpapi.New(httpapi.Deps{Config: cfg, Store: st, Auth: svc, Groups: groups.NewService(st), Catalog: cat,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	template.users = map[string]domain.User{}
	template.cookies = map[string]*http.Cookie{}
	for role, spec := range map[string]struct {
		mail string
		r    domain.Role
	}{
		studentNoGrp: {"sin.grupo@utpl.edu.ec", domain.RoleStudent},
		studentInGrp: {"Con.Grupo@utpl.edu.ec", domain.RoleStudent},
		tutor:        {"tutor@utpl.edu.ec", domain.RoleTutor},
		otherTutor:   {"otro.tutor@utpl.edu.ec", domain.RoleTutor},
	} {
		u, err := svc.CreateUser(ctx, spec.mail, testPassword, spec.r, "Nombre "+role)
		if err != nil {
			return err
		}
		template.users[role] = u
		body, _ := json.Marshal(map[string]string{"email": u.Mail, "password": testPassword})
		req := httptest.NewRequest(http.MethodPost, "/api/auth/login", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		res := httptest.NewRecorder()
		h.ServeHTTP(res, req)
		if res.Code != http.StatusOK {
			return fmt.Errorf("login %s: %d %s", role, res.Code, res.Body)
		}
		for _, c := range res.Result().Cookies() {
			if c.Name == sessionCookieName {
				template.cookies[role] = c
			}
		}
	}
	// The tool's signing key, made once (RSA key generation is slow).
	if err := lti.NewService(st, groups.NewService(st), lti.Options{}).Keys().Ensure(ctx); err != nil {
		return err
	}
	template.group = domain.Group{ID: domain.NewID(), Carrera: "derecho", Departamento: "Ciencias Jurídicas", Facultad: "Ciencias Sociales",
		Modalidad: "Distancia", DocenteEmail: template.users[tutor].Mail, Status: domain.GroupActive, CreatedAt: time.Now().UTC(),
		Estudiantes: []domain.GroupStudent{{Email: "con.grupo@utpl.edu.ec", Name: "Con Grupo", AddedAt: time.Now().UTC()}}}
	return st.CreateGroup(ctx, template.group)
}

// newEnv returns an API on a private copy of the template database.
func newEnv(t *testing.T, mutate ...func(*config.Config)) *env {
	t.Helper()
	template.once.Do(func() { template.err = buildTemplate() })
	if template.err != nil {
		t.Fatal(template.err)
	}
	ctx := context.Background()
	dataDir := t.TempDir()
	cfg, err := config.Load(func(k string) (string, bool) {
		if k == "DATA_DIR" {
			return dataDir, true
		}
		return "", false
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mutate {
		m(&cfg)
	}
	data, err := os.ReadFile(template.path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg.SQLitePath(), data, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, cfg.SQLitePath())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{t: t, cfg: cfg, store: st, users: template.users, cookies: template.cookies, group: template.group,
		clock: testclock.New(time.Now().UTC().Truncate(time.Second)), logs: &safebuf.Buffer{}}
	e.wire(t, st, filepath.Join(dataDir, "media"))
	return e
}

// wire builds e's services and API over st, as the server does at start.
func (e *env) wire(t *testing.T, st store.Store, mediaDir string) {
	t.Helper()
	ms, err := auth.NewMicrosoftVerifier(e.cfg.Microsoft)
	if err != nil {
		t.Fatal(err)
	}
	var log *slog.Logger
	if e.cfg.LogFormat == "json" { // as the server does with LOG_FORMAT=json
		log = slog.New(slog.NewJSONHandler(e.logs, nil))
	} else {
		log = slog.New(slog.NewTextHandler(e.logs, nil))
	}
	e.auth = auth.NewService(st, auth.NewSessions(st, e.cfg.SessionIdle, e.cfg.SessionMax), ms)
	e.auth.Configure(auth.Options{Log: log, Mailer: e.mailer, PublicURL: e.cfg.Mail.PublicURL, TutorsRequireMicrosoft: e.cfg.TutorsRequireMicrosoft})
	e.groups = groups.NewService(st)
	cat := catalog.NewService(st, e.cfg.AllowShortTimings)
	mediaStore, err := media.NewDir(mediaDir)
	if err != nil {
		t.Fatal(err)
	}
	mediaStore.Sync = false
	e.exams = exams.NewService(st, cat, e.groups, mediaStore)
	e.exams.SetClock(e.clock.Now)
	e.exams.SetLimits(exams.Limits{RecordingBytes: int64(e.cfg.MaxRecordingMB) << 20, StudentBytes: int64(e.cfg.StudentStorageQuotaMB) << 20,
		TakesPerPhase: e.cfg.MaxTakesPerPhase, MockTakesPerPhase: e.cfg.MaxMockTakesPerPhase, AttemptsPerDay: e.cfg.MaxAttemptsPerDay})
	e.lti = lti.NewService(st, e.groups, lti.Options{Now: e.clock.Now, Log: log, TutorsRequireMicrosoft: e.cfg.TutorsRequireMicrosoft})
	e.exams.OnGraded(e.lti.OnGraded)
	e.handler = httpapi.New(httpapi.Deps{Config: e.cfg, Store: st, Auth: e.auth, Groups: e.groups, Catalog: cat, Exams: e.exams,
		Feedback: feedback.NewService(st), LTI: e.lti, Log: log, Now: e.clock.Now})
}

func sessionCookie(t *testing.T, res *httptest.ResponseRecorder) *http.Cookie {
	t.Helper()
	for _, c := range res.Result().Cookies() {
		if c.Name == sessionCookieName && c.Value != "" {
			return c
		}
	}
	t.Fatalf("no session cookie in %v", res.Header())
	return nil
}

// do sends a request as role; body is JSON-encoded unless it is a *multipartBody.
func (e *env) do(role, method, path string, body any, headers ...string) *httptest.ResponseRecorder {
	e.t.Helper()
	var r io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case *multipartBody:
		r, contentType = bytes.NewReader(b.buf.Bytes()), b.contentType
	case []byte:
		r, contentType = bytes.NewReader(b), "application/octet-stream"
	case string:
		r, contentType = strings.NewReader(b), "application/json"
	default:
		data, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		r, contentType = bytes.NewReader(data), "application/json"
	}
	req := httptest.NewRequest(method, path, r)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	if c := e.cookies[role]; c != nil && role != guest {
		req.AddCookie(c)
	}
	res := httptest.NewRecorder()
	e.handler.ServeHTTP(res, req)
	return res
}

// decode unmarshals a response body into T.
func decode[T any](t *testing.T, res *httptest.ResponseRecorder) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(res.Body.Bytes(), &v); err != nil {
		t.Fatalf("decode %q: %v", res.Body.String(), err)
	}
	return v
}

type apiError struct {
	Error struct {
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"`
	} `json:"error"`
}

type multipartBody struct {
	buf         bytes.Buffer
	contentType string
}

// multipartFile builds a multipart/form-data body with one file field.
func multipartFile(t *testing.T, field, filename string, content []byte, fields ...string) *multipartBody {
	t.Helper()
	b := &multipartBody{}
	w := multipart.NewWriter(&b.buf)
	for i := 0; i+1 < len(fields); i += 2 {
		if err := w.WriteField(fields[i], fields[i+1]); err != nil {
			t.Fatal(err)
		}
	}
	fw, err := w.CreateFormFile(field, filename)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.Write(content); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	b.contentType = w.FormDataContentType()
	return b
}

// scenario is one row of an authorization table: what role gets calling
// method path. body may be a func so each row builds a fresh one.
type scenario struct {
	method string
	path   string // may hold {attempt}, {rec}, {case}: filled from the fixture
	body   func(e *env) any
	want   map[string]int // role -> status
	// fixture runs before the request (as other roles) and returns the ids
	// the path refers to.
	fixture func(e *env) map[string]string
}

// routeOf finds the route-table pattern a concrete request matches.
func routeOf(method, path string) string {
	path, _, _ = strings.Cut(path, "?")
	segs := strings.Split(path, "/")
	best, found := path, false
	for _, r := range httpapi.Routes() {
		if r.Method != method {
			continue
		}
		pat := strings.Split(r.Path, "/")
		if len(pat) != len(segs) {
			continue
		}
		ok := true
		for i := range pat {
			if !strings.HasPrefix(pat[i], ":") && pat[i] != segs[i] {
				ok = false
				break
			}
		}
		// Prefer literal matches (/cases/import over /cases/:id).
		if ok && (!found || strings.Count(r.Path, ":") < strings.Count(best, ":")) {
			best, found = r.Path, true
		}
	}
	return best
}

// expectAll is shorthand: the same status for every role except overrides.
func expectAll(status int, overrides ...any) map[string]int {
	m := map[string]int{}
	for _, r := range allRoles {
		m[r] = status
	}
	for i := 0; i+1 < len(overrides); i += 2 {
		m[overrides[i].(string)] = overrides[i+1].(int)
	}
	return m
}

func runScenarios(t *testing.T, newE func(t *testing.T) *env, scenarios []scenario) {
	for _, sc := range scenarios {
		for _, role := range allRoles {
			want, ok := sc.want[role]
			if !ok {
				t.Fatalf("%s %s: no expectation for role %s", sc.method, sc.path, role)
			}
			t.Run(sc.method+" "+sc.path+" as "+role, func(t *testing.T) {
				e := newE(t)
				path := sc.path
				if sc.fixture != nil {
					for k, v := range sc.fixture(e) {
						path = strings.ReplaceAll(path, "{"+k+"}", v)
					}
				}
				var body any
				if sc.body != nil {
					body = sc.body(e)
				}
				covered.Store(sc.method+" "+routeOf(sc.method, path), true)
				res := e.do(role, sc.method, path, body)
				if res.Code != want {
					t.Fatalf("status = %d, want %d; body: %s", res.Code, want, res.Body)
				}
			})
		}
	}
}

// newEnvOn is a second server on e's database (opened again): another
// instance of the server, with its own services and in-memory state.
func newEnvOn(t *testing.T, e *env) *env {
	t.Helper()
	st, err := sqlite.Open(context.Background(), e.cfg.SQLitePath())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	o := &env{t: t, cfg: e.cfg, store: st, users: e.users, cookies: e.cookies, group: e.group, clock: e.clock, logs: &safebuf.Buffer{}}
	o.wire(t, st, t.TempDir())
	return o
}
