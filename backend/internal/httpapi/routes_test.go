package httpapi

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
)

// A new public endpoint must be a conscious change: this list is the whole
// of what a guest may call.
func TestPublicRoutesAreExactlyTheExpectedOnes(t *testing.T) {
	t.Parallel()
	want := []string{
		"GET /api/health",
		"GET /api/config",
		"GET /api/session",
		"POST /api/auth/login",
		"POST /api/auth/logout",
		"POST /api/auth/microsoft/start",
		"POST /api/auth/microsoft",
		"POST /api/auth/login/code",
		"POST /api/auth/password-reset",
		// LTI 1.3: what a learning platform and the browsers it sends call.
		"GET /lti/login",
		"POST /lti/login",
		"POST /lti/launch",
		"POST /lti/continue",
		"POST /lti/deep-link",
		"GET /lti/jwks",
		"GET /lti/config.json",
	}
	var got []string
	for _, r := range Routes() {
		if r.Access == public.String() {
			got = append(got, r.Method+" "+r.Path)
		}
	}
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("public routes:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestServerConstructionRefusesAnInconsistentRouteTable(t *testing.T) {
	t.Parallel()
	ok := func(c echo.Context) error { return c.NoContent(http.StatusNoContent) }
	for _, tc := range []struct {
		name   string
		routes []route
		want   string
	}{
		{"no access level", []route{{method: http.MethodGet, path: "/api/olvidada", handler: ok}}, "GET /api/olvidada has no access level"},
		{"unknown access level", []route{{method: http.MethodGet, path: "/api/rara", access: tutorOnly + 1, handler: ok}}, "has no access level"},
		{"listed twice", []route{
			{method: http.MethodGet, path: "/api/doble", access: signedIn, handler: ok},
			{method: http.MethodGet, path: "/api/doble", access: public, handler: ok},
		}, "listed twice"},
		{"outside /api", []route{{method: http.MethodGet, path: "/fuera", access: public, handler: ok}}, "incomplete"},
		{"no handler", []route{{method: http.MethodGet, path: "/api/vacia", access: public}}, "incomplete"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := build(Deps{}, func(*api) []route { return tc.routes })
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("build = %v, %v; want an error containing %q", h, err, tc.want)
			}
		})
	}
	if _, err := build(Deps{}, (*api).routes); err != nil {
		t.Fatalf("the real route table: %v", err)
	}
}
