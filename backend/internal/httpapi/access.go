package httpapi

import (
	"fmt"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/groups"
)

// access says who may call an endpoint; each level backs a section of the
// app (docs/architecture.md, "The route table").
type access int

const (
	accessUnset access = iota // deny: a route must choose
	public                    // anyone, signed in or not
	signedIn                  // any user with a profile (/auth)
	testTaker                 // a tutor, or a student in an active group (/test)
	tutorOnly                 // a tutor (/admin)
)

func (a access) String() string {
	return [...]string{"unset", "public", "signedIn", "testTaker", "tutor"}[a]
}

const (
	ctxUser    = "user"
	ctxSession = "session"
)

// requireAccess enforces level after the session middleware has run.
func (a *api) requireAccess(level access) echo.MiddlewareFunc {
	if level == accessUnset || level > tutorOnly {
		panic(fmt.Sprintf("route without a valid access level: %d", level))
	}
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if level == public {
				return next(c)
			}
			u, ok := currentUser(c)
			if !ok {
				return domain.ErrUnauthenticated
			}
			switch level {
			case tutorOnly:
				if !u.IsTutor() {
					return domain.ErrForbidden
				}
			case testTaker:
				ok, err := a.groups.CanEnterTest(c.Request().Context(), u)
				if err != nil {
					return err
				}
				if !ok {
					return domain.Forbidden(groups.CodeNoActiveGroup, groups.MsgStudentWithoutGroup)
				}
			}
			return next(c)
		}
	}
}

func currentUser(c echo.Context) (domain.User, bool) {
	u, ok := c.Get(ctxUser).(domain.User)
	return u, ok
}

// currentSession is the session the request came with (or the one its
// sign-in started).
func currentSession(c echo.Context) (domain.Session, bool) {
	se, ok := c.Get(ctxSession).(domain.Session)
	return se, ok
}
