package httpapi

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/domain"
)

// Cookie names. A Secure cookie (the default) carries a name prefix that
// browsers enforce: __Host- only for a Secure, host-only cookie with
// Path=/, so neither a plain-HTTP page nor a sibling subdomain can set or
// shadow the session; __Secure- for the nonce, which lives under
// /api/auth/microsoft. COOKIE_SECURE=never drops Secure and so the prefix
// (a browser refuses a prefixed cookie without Secure).
const (
	secureSessionCookie = "__Host-simulador_session"
	plainSessionCookie  = "simulador_session"
	secureNonceCookie   = "__Secure-simulador_ms_nonce"
	plainNonceCookie    = "simulador_ms_nonce"
	// The sign-in waiting for its second factor (its state is on the
	// server; the cookie only names it).
	secureMFACookie = "__Host-simulador_mfa"
	plainMFACookie  = "simulador_mfa"
)

// Behind Firebase Hosting only a cookie named __session reaches the
// server (Hosting drops every other one), so with FIREBASE_HOSTING=true the
// session is kept in it, Secure, HttpOnly, host-only and Path=/ as the
// __Host- prefix would demand, and the Microsoft sign-in's nonce travels in
// it too, marked with nonceMark, until the sign-in replaces it with a
// session.
const (
	firebaseCookie = "__session"
	nonceMark      = "nonce."
)

func (a *api) sessionCookie() string {
	if a.cfg.FirebaseHosting {
		return firebaseCookie
	}
	if a.secureCookies() {
		return secureSessionCookie
	}
	return plainSessionCookie
}

func (a *api) nonceCookie() string {
	if a.cfg.FirebaseHosting {
		return firebaseCookie
	}
	if a.secureCookies() {
		return secureNonceCookie
	}
	return plainNonceCookie
}

func (a *api) mfaCookie() string {
	if a.secureCookies() {
		return secureMFACookie
	}
	return plainMFACookie
}

// withActor puts who is calling (the client's address, for now) in the
// request's context, for the security events the request may log.
func (a *api) withActor(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		c.SetRequest(req.WithContext(audit.WithActor(req.Context(), audit.Actor{IP: c.RealIP(), Via: "web"})))
		return next(c)
	}
}

// loadSession resolves the session cookie, if any, into the request's user
// and session. A stale cookie is cleared; the route's access level decides
// what follows.
func (a *api) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ck, err := c.Cookie(a.sessionCookie())
		if err != nil || ck.Value == "" || a.cfg.FirebaseHosting && strings.HasPrefix(ck.Value, nonceMark) {
			return next(c) // no session (a nonce is not one)
		}
		// LTI: behind Hosting the login states ride in a __session of
		// their own under /lti (lti_handlers.go); they are no session.
		if a.cfg.FirebaseHosting && strings.HasPrefix(ck.Value, ltiStateMark) {
			return next(c)
		}
		u, se, err := a.auth.Sessions().ResolveSession(c.Request().Context(), ck.Value)
		switch {
		case errors.Is(err, domain.ErrUnauthenticated):
			a.clearCookie(c, a.sessionCookie(), "/")
		case err != nil:
			return err
		default:
			a.setCurrent(c, u, se)
		}
		return next(c)
	}
}

func (a *api) setCurrent(c echo.Context, u domain.User, se domain.Session) {
	c.Set(ctxUser, u)
	c.Set(ctxSession, se)
	audit.SetUser(c.Request().Context(), u.ID, se.ID)
}

// startSession issues a new session (a new token at every sign-in) and
// revokes the one the browser presented, if any. method is how the user
// proved who they are (for the sign-in event).
func (a *api) startSession(c echo.Context, u domain.User, method string) error {
	ctx := c.Request().Context()
	if old, err := c.Cookie(a.sessionCookie()); err == nil {
		if err := a.auth.Sessions().Revoke(ctx, old.Value); err != nil {
			return err
		}
	}
	token, se, err := a.auth.StartSession(ctx, u, method, c.Request().UserAgent(), c.RealIP())
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{
		Name: a.sessionCookie(), Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: a.secureCookies(), MaxAge: int(a.auth.Sessions().MaxAge() / time.Second),
	})
	a.setCurrent(c, u, se)
	return nil
}

func (a *api) clearCookie(c echo.Context, name, path string) {
	c.SetCookie(&http.Cookie{Name: name, Value: "", Path: path, HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: a.secureCookies(), MaxAge: -1})
}

// secureCookies reports whether cookies are marked Secure: always, unless
// COOKIE_SECURE=never. Browsers (and Go's cookie jar) keep and send Secure
// cookies for http://localhost and http://127.0.0.1, so local runs need
// nothing; "never" is for a plain-HTTP address that is not loopback.
func (a *api) secureCookies() bool { return a.cfg.CookieSecure != "never" }
