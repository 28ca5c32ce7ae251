// Package httpapi is the HTTP face of the server: the one route table,
// middleware (sessions, access, CSRF, limits, headers), handlers and the
// single error handler. Handlers call capability services; they never touch
// a store adapter or SQL.
package httpapi

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/klauspost/compress/gzhttp"
	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/lti"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/webui"
)

// Deps are the services the API exposes.
type Deps struct {
	Config   config.Config
	Store    store.Store
	Auth     *auth.Service
	Groups   *groups.Service
	Catalog  *catalog.Service
	Exams    *exams.Service
	Feedback *feedback.Service
	LTI      *lti.Service
	Log      *slog.Logger
	// Now is the clock (tests may replace it); nil means time.Now.
	Now func() time.Time
	// Frontend is the built frontend to serve (tests give a directory of
	// their own); nil means the one embedded in the binary.
	Frontend fs.FS
}

type api struct {
	cfg      config.Config
	store    store.Store
	auth     *auth.Service
	groups   *groups.Service
	catalog  *catalog.Service
	exams    *exams.Service
	feedback *feedback.Service
	lti      *lti.Service
	log      *slog.Logger
	csp      string
	headers  []Header // SecurityHeaders
	clients  clientAddresses
	now      func() time.Time
}

// New returns the server's root handler. It panics when the route table is
// inconsistent (a route without an access level, say): that is a
// programming error, caught by any test that builds the server.
func New(d Deps) http.Handler {
	h, err := build(d, (*api).routes)
	if err != nil {
		panic(err)
	}
	return h
}

// build assembles the server from a route table.
func build(d Deps, table func(*api) []route) (http.Handler, error) {
	a := &api{cfg: d.Config, store: d.Store, auth: d.Auth, groups: d.Groups, catalog: d.Catalog, exams: d.Exams, feedback: d.Feedback, lti: d.LTI, log: d.Log, now: d.Now}
	if a.now == nil {
		a.now = time.Now
	}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	a.clients = newClientAddresses(d.Config)
	a.csp = contentSecurityPolicy(d.Config)
	a.headers = SecurityHeaders(d.Config)

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = a.handleError
	e.IPExtractor = a.clientIP

	e.Use(middleware.Recover())
	e.Use(a.requestLog())
	e.Use(a.securityHeaders)
	apiGroup := e.Group("/api", a.withActor, a.loadSession)
	// The LTI endpoints are pages and documents for learning platforms,
	// outside the JSON API; they are in the same table.
	ltiGroup := e.Group("/lti", a.withActor)
	if err := a.mount(map[string]*echo.Group{"/api/": apiGroup, "/lti/": ltiGroup}, table(a)); err != nil {
		return nil, err
	}
	apiGroup.Any("/*", func(c echo.Context) error { return echo.ErrNotFound })
	ltiGroup.Any("/*", func(c echo.Context) error { return c.String(http.StatusNotFound, "404 page not found\n") })

	cfgJSON, err := json.Marshal(a.publicConfig())
	if err != nil {
		return nil, err
	}
	guestJSON, err := json.Marshal(sessionDTO{})
	if err != nil {
		return nil, err
	}
	page := webui.Page{Config: cfgJSON, GuestSession: guestJSON, SessionCookie: a.sessionCookie()}
	ui := webui.Handler(page)
	if d.Frontend != nil {
		ui = webui.HandlerFS(d.Frontend, page)
	}
	e.GET("/*", echo.WrapHandler(ui))
	e.HEAD("/*", echo.WrapHandler(ui))

	// Cross-site state-changing requests (CSRF) are refused before routing;
	// same-origin requests and safe methods pass.
	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(a.crossOriginRefused))
	// A platform's login initiation and launch are cross-site form posts
	// by design; they are bound by their own single-use state and signed
	// token instead (docs/lti.md).
	csrf.AddInsecureBypassPattern("POST " + lti.LoginPath)
	csrf.AddInsecureBypassPattern("POST " + lti.LaunchPath)
	h, err := compress(csrf.Handler(e))
	if err != nil {
		return nil, err
	}
	return a.clients.dropUntrustedForwarding(h), nil
}

// compress gzips responses of at least 1 KiB for clients that accept it
// (pages, scripts and API answers; Lighthouse's performance budget counts
// on it). The gzip writer is taken only once a response has passed that
// size: a request that waits (for a password check, say) or answers a few
// bytes holds none, where a writer holds ~800 KiB once used. Recordings
// (already compressed, served with ranges) and chunk uploads, whose
// acknowledgements are a few bytes, skip it altogether.
func compress(h http.Handler) (http.Handler, error) {
	wrap, err := gzhttp.NewWrapper(gzhttp.MinSize(1024), gzhttp.CompressionLevel(5))
	if err != nil {
		return nil, err
	}
	gz := wrap(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasSuffix(p, "/media") || r.Method == http.MethodPut && strings.Contains(p, "/chunks/") {
			h.ServeHTTP(w, r)
			return
		}
		gz.ServeHTTP(w, r)
	}), nil
}

// clientIP is the client's address: from X-Forwarded-For as far as the
// configuration trusts it (clientaddr.go), the connection's otherwise.
func (a *api) clientIP(r *http.Request) string { return a.clients.of(r) }

// mount adds the route table to the groups by path prefix (/api/, /lti/).
// Every route must choose an access level (deny by default) and appear
// once.
func (a *api) mount(groups map[string]*echo.Group, routes []route) error {
	seen := map[string]bool{}
	for _, r := range routes {
		id := r.method + " " + r.path
		prefix, _, _ := strings.Cut(strings.TrimPrefix(r.path, "/"), "/")
		prefix = "/" + prefix + "/"
		g := groups[prefix]
		switch {
		case r.access == accessUnset || r.access > tutorOnly:
			return fmt.Errorf("route %s has no access level: every endpoint must say who may call it", id)
		case r.method == "" || g == nil || !strings.HasPrefix(r.path, prefix) || r.handler == nil:
			return fmt.Errorf("route %q is incomplete (method, /api/ or /lti/ path and handler are required)", id)
		case seen[id]:
			return fmt.Errorf("route %s is listed twice", id)
		}
		seen[id] = true
		limit := r.limit
		if limit == 0 {
			limit = defaultBodyLimit
		}
		mws := []echo.MiddlewareFunc{bodyLimit(limit, r.tooLarge), a.requireAccess(r.access)}
		g.Add(r.method, strings.TrimPrefix(r.path, strings.TrimSuffix(prefix, "/")), r.handler, mws...)
	}
	return nil
}

// crossOriginRefused answers a cross-site state-changing request in the
// API's error format, with the headers every response carries.
func (a *api) crossOriginRefused(w http.ResponseWriter, r *http.Request) {
	a.setSecurityHeaders(w.Header(), r)
	ctx := audit.WithActor(r.Context(), audit.Actor{IP: a.clientIP(r), Via: "web"})
	audit.Warn(ctx, a.log, "authz.denied", slog.String("reason", "cross_origin"), slog.Int("status", http.StatusForbidden),
		slog.String("method", clip(r.Method)), slog.String("path", clip(r.URL.Path)),
		slog.String("origin", clip(r.Header.Get("Origin"))), slog.String("secFetchSite", clip(r.Header.Get("Sec-Fetch-Site"))))
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(http.StatusForbidden)
	if r.Method == http.MethodHead {
		return
	}
	_ = json.NewEncoder(w).Encode(errorBody{errorPayload{Code: "cross_origin",
		Message: "La solicitud fue rechazada porque no proviene de este sitio. Recargue la página e intente de nuevo."}})
}

// bodyLimit refuses a body over limit bytes: at once when Content-Length
// says so, otherwise while reading, before anything is stored. The body is
// read through a requestBody, so the error handler can tell the client's
// failures (too large, too slow, cut off) from the server's.
func bodyLimit(limit int64, message string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if message != "" {
				c.Set(ctxTooLarge, message)
			}
			req := c.Request()
			if req.ContentLength > limit {
				return echo.NewHTTPError(http.StatusRequestEntityTooLarge)
			}
			body := &requestBody{ReadCloser: http.MaxBytesReader(c.Response(), req.Body, limit)}
			req.Body = body
			c.Set(ctxBody, body)
			return next(c)
		}
	}
}

const ctxBody = "requestBody"

// requestBody counts what was read of a request body and marks its read
// errors as the client's (bodyError).
type requestBody struct {
	io.ReadCloser
	read int64
	eof  bool
}

func (b *requestBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read += int64(n)
	switch {
	case err == io.EOF:
		b.eof = true
	case err != nil:
		err = &bodyError{err}
	}
	return n, err
}

// unread reports whether part of the body was never read (a request
// refused before its body was needed).
func (b *requestBody) unread(r *http.Request) bool {
	if r.ContentLength > 0 {
		return b.read < r.ContentLength
	}
	return r.ContentLength < 0 && !b.eof
}

// bodyError is a failure to read the request body: it is too large, it
// came too slowly (the server's read timeout) or the client hung up.
type bodyError struct{ err error }

func (e *bodyError) Error() string { return "reading the request body: " + e.err.Error() }
func (e *bodyError) Unwrap() error { return e.err }

// requestLog writes one line per API request: who (user and session
// ids), what (method and URI, with search text removed) and how it went.
// No API path holds an e-mail address: students are named by their ids.
func (a *api) requestLog() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogMethod: true, LogLatency: true, LogRemoteIP: true, HandleError: true,
		Skipper: func(c echo.Context) bool {
			p := c.Request().URL.Path
			return !strings.HasPrefix(p, "/api/") && !strings.HasPrefix(p, "/lti/")
		},
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			userID, sessionID := "", ""
			if u, ok := currentUser(c); ok {
				userID = u.ID
			}
			if se, ok := currentSession(c); ok {
				sessionID = se.ID
			}
			a.log.LogAttrs(c.Request().Context(), slog.LevelInfo, "request",
				slog.String("method", v.Method), slog.String("uri", loggedURI(c.Request().URL)), slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency), slog.String("ip", v.RemoteIP),
				slog.String("userId", userID), slog.String("sessionId", sessionID))
			return nil
		},
	})
}

// redactedParams are query parameters whose values stay out of the log:
// search text may be a name or an address.
var redactedParams = []string{"q"}

// loggedURI is the request's path and query as logged.
func loggedURI(u *url.URL) string {
	if u.RawQuery == "" {
		return u.Path
	}
	q := u.Query()
	for _, k := range redactedParams {
		if q.Has(k) {
			q.Set(k, "redacted")
		}
	}
	return u.Path + "?" + q.Encode()
}

func (a *api) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		a.setSecurityHeaders(c.Response().Header(), c.Request())
		return next(c)
	}
}

// Header is one response header.
type Header struct{ Key, Value string }

// hsts is the Strict-Transport-Security value. includeSubDomains: a
// sibling host over plain HTTP could otherwise be used to set cookies for
// this one.
const hsts = "max-age=31536000; includeSubDomains"

// SecurityHeaders are the headers every page and API answer carries for
// cfg, HSTS aside (see setSecurityHeaders). They are the one definition:
// Firebase Hosting, which serves the built pages in a deployment, sends
// the same ones (firebase.json is generated from this list by
// cmd/firebase-config, and a test fails when the file has drifted).
func SecurityHeaders(cfg config.Config) []Header {
	return []Header{
		{"Content-Security-Policy", contentSecurityPolicy(cfg)},
		{"X-Content-Type-Options", "nosniff"},
		{"X-Frame-Options", "DENY"},
		{"Referrer-Policy", "strict-origin-when-cross-origin"},
		{"Permissions-Policy", "microphone=(self), camera=(), geolocation=(), payment=()"},
		{"Cross-Origin-Opener-Policy", "same-origin-allow-popups"},
	}
}

// HSTS is the Strict-Transport-Security header the server sends whenever
// its cookies are Secure (and so on a Firebase Hosting site, HTTPS only).
func HSTS() Header { return Header{"Strict-Transport-Security", hsts} }

func (a *api) setSecurityHeaders(h http.Header, r *http.Request) {
	for _, sh := range a.headers {
		h.Set(sh.Key, sh.Value)
	}
	// With Secure cookies the site is served over HTTPS (or on loopback,
	// where browsers ignore HSTS), so HSTS goes out even when a proxy that
	// is not trusted terminated TLS.
	if isHTTPS(r) || a.secureCookies() {
		h.Set("Strict-Transport-Security", hsts)
	}
	if strings.HasPrefix(r.URL.Path, "/api/") || strings.HasPrefix(r.URL.Path, "/lti/") {
		h.Set("Cache-Control", "no-store")
	}
}

// contentSecurityPolicy allows no inline or foreign scripts. Styles allow
// 'unsafe-inline' because SweetAlert2 and React set element styles.
func contentSecurityPolicy(cfg config.Config) string {
	connect := []string{"'self'"}
	if o := origin(cfg.Microsoft.Authority); o != "" {
		connect = append(connect, o) // MSAL calls the token endpoint from the page
	}
	media := []string{"'self'", "blob:"}
	if o := origin(cfg.Site.IntroVideoURL); o != "" {
		media = append(media, o)
	}
	return strings.Join([]string{
		"default-src 'self'",
		"script-src 'self'",
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob: https:",
		"font-src 'self'",
		"media-src " + strings.Join(media, " "),
		"connect-src " + strings.Join(connect, " "),
		"worker-src 'self' blob:",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	}, "; ")
}

func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// isHTTPS reports whether the browser reached us over HTTPS, directly or
// through the trusted proxy: from anyone else, dropUntrustedForwarding has
// already removed a client's X-Forwarded-Proto.
func isHTTPS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// attachment is a Content-Disposition that downloads a file named name,
// quoted or RFC 2231-encoded as needed so no part of name becomes another
// parameter.
func attachment(name string) string {
	return mime.FormatMediaType("attachment", map[string]string{"filename": name})
}

// logValueMax bounds a value a caller chose (a header, a path) in a log
// line: an unauthenticated request must not write kilobytes per line.
const logValueMax = 200

// clip is s cut to logValueMax bytes (on a rune boundary), marked with "…"
// when cut.
func clip(s string) string {
	if len(s) <= logValueMax {
		return s
	}
	cut := logValueMax
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
