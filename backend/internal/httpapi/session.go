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
// __Host- prefix would demand. The Microsoft sign-in's nonce travels in it
// too, marked with nonceMark, and so does a password sign-in waiting for
// its second factor, marked with mfaMark, until the sign-in replaces either
// with a session. A marked value is never looked up as a session, and an
// unmarked one never as a nonce or a pending sign-in.
const (
	firebaseCookie = "__session"
	nonceMark      = "nonce."
	mfaMark        = "mfa."
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
	if a.cfg.FirebaseHosting {
		return firebaseCookie
	}
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
		token := a.presentedSession(c)
		if token == "" {
			return next(c) // no session (a nonce or a pending sign-in is not one)
		}
		u, se, err := a.auth.Sessions().ResolveSession(c.Request().Context(), token)
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

// presentedSession is the session token the browser sent, if any: behind
// Hosting the shared cookie may instead hold a nonce or a pending sign-in,
// which are no session.
func (a *api) presentedSession(c echo.Context) string {
	ck, err := c.Cookie(a.sessionCookie())
	if err != nil {
		return ""
	}
	// An unprefixed __session can be set by any sibling host of the
	// parent domain, and a browser sends that one first: with two of
	// them, neither is trusted (S3-17).
	if a.cfg.FirebaseHosting && len(c.Request().CookiesNamed(firebaseCookie)) > 1 {
		return ""
	}
	// Behind Hosting, the Microsoft nonce, a sign-in waiting for its code
	// and (under /lti, lti_handlers.go) the LTI login states ride in
	// __session too, marked; none of them is a session.
	if a.cfg.FirebaseHosting && (strings.HasPrefix(ck.Value, nonceMark) || strings.HasPrefix(ck.Value, mfaMark) || strings.HasPrefix(ck.Value, ltiStateMark)) {
		return ""
	}
	return ck.Value
}

// pendingSignIn is the token of the password sign-in waiting for its
// second factor, if the browser sent one.
func (a *api) pendingSignIn(c echo.Context) string {
	ck, err := c.Cookie(a.mfaCookie())
	if err != nil {
		return ""
	}
	if a.cfg.FirebaseHosting {
		token, marked := strings.CutPrefix(ck.Value, mfaMark)
		if !marked {
			return ""
		}
		return token
	}
	return ck.Value
}

// setPendingSignIn hands the browser the token of a sign-in waiting for
// its code. Behind Hosting it takes the place of the session cookie, so the
// session the browser held, if any, is revoked first rather than left
// alive with no browser to end it (the code step starts a new one anyway).
func (a *api) setPendingSignIn(c echo.Context, token string, lifetime time.Duration) error {
	value := token
	if a.cfg.FirebaseHosting {
		if old := a.presentedSession(c); old != "" {
			if err := a.auth.Sessions().Revoke(c.Request().Context(), old); err != nil {
				return err
			}
		}
		value = mfaMark + token
	}
	c.SetCookie(&http.Cookie{Name: a.mfaCookie(), Value: value, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode,
		Secure: a.secureCookies(), MaxAge: int(lifetime / time.Second)})
	return nil
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
	if old := a.presentedSession(c); old != "" {
		if err := a.auth.Sessions().Revoke(ctx, old); err != nil {
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
