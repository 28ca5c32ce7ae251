package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// route is one API endpoint. access has no usable zero value: a route that
// forgets to say who may call it makes the server refuse to start.
type route struct {
	method string
	path   string
	access access
	limit  int64 // request body limit in bytes; 0 = defaultBodyLimit
	// tooLarge is the Spanish message for a body over limit; "" = generic.
	tooLarge string
	handler  echo.HandlerFunc
}

const defaultBodyLimit = 64 << 10

// routes is the one table of API endpoints. Everything not listed here is a
// JSON 404 under /api and the single-page app elsewhere.
func (a *api) routes() []route {
	return []route{
		{method: http.MethodGet, path: "/api/health", access: public, handler: a.health},
		{method: http.MethodGet, path: "/api/config", access: public, handler: a.siteConfig},
		{method: http.MethodGet, path: "/api/session", access: public, handler: a.session},
		{method: http.MethodPost, path: "/api/auth/login", access: public, handler: a.login},
		{method: http.MethodPost, path: "/api/auth/logout", access: public, handler: a.logout},
		{method: http.MethodPost, path: "/api/auth/microsoft/start", access: public, handler: a.microsoftStart},
		{method: http.MethodPost, path: "/api/auth/microsoft", access: public, limit: 32 << 10, handler: a.microsoftLogin},

		{method: http.MethodGet, path: "/api/degrees", access: signedIn, handler: a.listDegrees},
		{method: http.MethodGet, path: "/api/test/access", access: testTaker, handler: a.testAccess},
		{method: http.MethodGet, path: "/api/admin/access", access: tutorOnly, handler: a.adminAccess},

		// The tutor's group (spec sections 3-5, 8; PRODUCT.md /admin Grupo, Estudiantes).
		{method: http.MethodGet, path: "/api/admin/group", access: tutorOnly, handler: a.getActiveGroup},
		{method: http.MethodPost, path: "/api/admin/group", access: tutorOnly, limit: rosterUploadLimit, tooLarge: rosterTooLarge, handler: a.loadGroup},
		{method: http.MethodPost, path: "/api/admin/group/students", access: tutorOnly, limit: 512 << 10, handler: a.addStudents},
		{method: http.MethodPost, path: "/api/admin/group/students/file", access: tutorOnly, limit: rosterUploadLimit, tooLarge: rosterTooLarge, handler: a.addStudentsFile},
		{method: http.MethodPost, path: "/api/admin/group/finalize", access: tutorOnly, handler: a.finalizeGroup},
		{method: http.MethodGet, path: "/api/admin/group/students", access: tutorOnly, handler: a.activeGroupStudents},
		{method: http.MethodGet, path: "/api/admin/groups", access: tutorOnly, handler: a.groupHistory},
		{method: http.MethodGet, path: "/api/admin/groups/:id", access: tutorOnly, handler: a.getGroup},
		{method: http.MethodGet, path: "/api/admin/students/search", access: tutorOnly, handler: a.searchStudents},
	}
}
