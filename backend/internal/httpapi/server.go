// Package httpapi is the HTTP face of the server: the one route table,
// middleware (sessions, access, CSRF, limits, headers), handlers and the
// single error handler. Handlers call capability services; they never touch
// a store adapter or SQL.
package httpapi

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/groups"
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
	Log      *slog.Logger
	// Now is the clock (tests may replace it); nil means time.Now.
	Now func() time.Time
}

type api struct {
	cfg      config.Config
	store    store.Store
	auth     *auth.Service
	groups   *groups.Service
	catalog  *catalog.Service
	exams    *exams.Service
	feedback *feedback.Service
	log      *slog.Logger
	csp      string
	now      func() time.Time
}

// zeroTime disables Last-Modified on served media.
var zeroTime time.Time

// New returns the server's root handler.
func New(d Deps) http.Handler {
	a := &api{cfg: d.Config, store: d.Store, auth: d.Auth, groups: d.Groups, catalog: d.Catalog, exams: d.Exams, feedback: d.Feedback, log: d.Log, now: d.Now}
	if a.now == nil {
		a.now = time.Now
	}
	a.csp = contentSecurityPolicy(d.Config)

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.HTTPErrorHandler = a.handleError
	if d.Config.TrustProxy {
		e.IPExtractor = echo.ExtractIPFromXFFHeader()
	} else {
		e.IPExtractor = echo.ExtractIPDirect()
	}

	e.Use(middleware.Recover())
	e.Use(a.requestLog())
	e.Use(a.securityHeaders)
	e.Use(middleware.GzipWithConfig(middleware.GzipConfig{
		Level:     5,
		MinLength: 1024,
		// Recordings are already compressed and are served with ranges. A
		// chunk's acknowledgement is a few bytes, never compressed, but the
		// middleware would still hold a pooled gzip writer (~800 KiB once
		// used) for the whole upload of each chunk in flight: 200 recorders
		// after a stall of a few seconds meant ~150 MB more memory.
		Skipper: func(c echo.Context) bool {
			p := c.Request().URL.Path
			return strings.HasSuffix(p, "/media") || c.Request().Method == http.MethodPut && strings.Contains(p, "/chunks/")
		},
	}))

	apiGroup := e.Group("/api", a.loadSession)
	for _, r := range a.routes() {
		limit := r.limit
		if limit == 0 {
			limit = defaultBodyLimit
		}
		mws := []echo.MiddlewareFunc{bodyLimit(limit, r.tooLarge), a.requireAccess(r.access)}
		apiGroup.Add(r.method, strings.TrimPrefix(r.path, "/api"), r.handler, mws...)
	}
	apiGroup.Any("/*", func(c echo.Context) error { return echo.ErrNotFound })

	cfgJSON, err := json.Marshal(a.publicConfig())
	if err != nil {
		panic(err)
	}
	e.GET("/*", echo.WrapHandler(webui.Handler(cfgJSON)))
	e.HEAD("/*", echo.WrapHandler(webui.Handler(cfgJSON)))

	// Cross-site state-changing requests (CSRF) are refused before routing;
	// same-origin requests and safe methods pass.
	return http.NewCrossOriginProtection().Handler(e)
}

// bodyLimit refuses a body over limit bytes: at once when Content-Length
// says so, otherwise while reading, before anything is stored.
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
			req.Body = http.MaxBytesReader(c.Response(), req.Body, limit)
			return next(c)
		}
	}
}

func (a *api) requestLog() echo.MiddlewareFunc {
	return middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogRemoteIP: true, HandleError: true,
		Skipper: func(c echo.Context) bool { return !strings.HasPrefix(c.Request().URL.Path, "/api/") },
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			a.log.LogAttrs(c.Request().Context(), slog.LevelInfo, "request",
				slog.String("method", v.Method), slog.String("uri", v.URI), slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency), slog.String("ip", v.RemoteIP))
			return nil
		},
	})
}

func (a *api) securityHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", a.csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Permissions-Policy", "microphone=(self), camera=(), geolocation=(), payment=()")
		h.Set("Cross-Origin-Opener-Policy", "same-origin-allow-popups")
		if isHTTPS(c.Request()) {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		if strings.HasPrefix(c.Request().URL.Path, "/api/") {
			h.Set("Cache-Control", "no-store")
		}
		return next(c)
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

func isHTTPS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}
