package httpapi

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/domain"
)

const (
	sessionCookie = "simulador_session"
	nonceCookie   = "simulador_ms_nonce"
)

// loadSession resolves the session cookie, if any, into the request's user.
// A stale cookie is cleared; the route's access level decides what follows.
func (a *api) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		ck, err := c.Cookie(sessionCookie)
		if err != nil || ck.Value == "" {
			return next(c)
		}
		u, err := a.auth.Sessions().Resolve(c.Request().Context(), ck.Value)
		switch {
		case errors.Is(err, domain.ErrUnauthenticated):
			a.clearCookie(c, sessionCookie, "/")
		case err != nil:
			return err
		default:
			c.Set(ctxUser, u)
		}
		return next(c)
	}
}

// startSession issues a new session (a new token at every sign-in) and
// revokes the one the browser presented, if any.
func (a *api) startSession(c echo.Context, u domain.User) error {
	ctx := c.Request().Context()
	if old, err := c.Cookie(sessionCookie); err == nil {
		if err := a.auth.Sessions().Revoke(ctx, old.Value); err != nil {
			return err
		}
	}
	token, err := a.auth.Sessions().Create(ctx, u.ID, c.Request().UserAgent(), c.RealIP())
	if err != nil {
		return err
	}
	c.SetCookie(&http.Cookie{
		Name: sessionCookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: a.secureCookies(c.Request()), MaxAge: int(a.auth.Sessions().MaxAge() / time.Second),
	})
	c.Set(ctxUser, u)
	return nil
}

func (a *api) clearCookie(c echo.Context, name, path string) {
	c.SetCookie(&http.Cookie{Name: name, Value: "", Path: path, HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: a.secureCookies(c.Request()), MaxAge: -1})
}

func (a *api) secureCookies(r *http.Request) bool {
	switch a.cfg.CookieSecure {
	case "always":
		return true
	case "never":
		return false
	}
	return isHTTPS(r)
}
