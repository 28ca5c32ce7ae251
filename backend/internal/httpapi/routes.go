package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/lti"
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

// routes is the one table of endpoints. Everything not listed here is a
// JSON 404 under /api, a 404 under /lti and the single-page app elsewhere.
func (a *api) routes() []route {
	return []route{
		{method: http.MethodGet, path: "/api/health", access: public, handler: a.health},
		{method: http.MethodGet, path: "/api/config", access: public, handler: a.siteConfig},
		{method: http.MethodGet, path: "/api/session", access: public, handler: a.session},
		{method: http.MethodPost, path: "/api/auth/login", access: public, handler: a.login},
		{method: http.MethodPost, path: "/api/auth/logout", access: public, handler: a.logout},
		{method: http.MethodPost, path: "/api/auth/microsoft/start", access: public, handler: a.microsoftStart},
		{method: http.MethodPost, path: "/api/auth/microsoft", access: public, limit: 32 << 10, handler: a.microsoftLogin},
		{method: http.MethodPost, path: "/api/auth/login/code", access: public, handler: a.loginCode},
		{method: http.MethodPost, path: "/api/auth/password-reset", access: public, handler: a.usePasswordReset},

		// The user's own account (/auth/cuenta).
		{method: http.MethodGet, path: "/api/me/account", access: signedIn, handler: a.myAccount},
		{method: http.MethodPut, path: "/api/me/password", access: signedIn, handler: a.changePassword},
		{method: http.MethodGet, path: "/api/me/sessions", access: signedIn, handler: a.mySessions},
		{method: http.MethodDelete, path: "/api/me/sessions/:id", access: signedIn, handler: a.endSession},
		{method: http.MethodPost, path: "/api/me/sessions/end-others", access: signedIn, handler: a.endOtherSessions},
		{method: http.MethodPost, path: "/api/me/mfa/totp", access: signedIn, handler: a.startTOTP},
		{method: http.MethodPost, path: "/api/me/mfa/totp/confirm", access: signedIn, handler: a.confirmTOTP},
		{method: http.MethodPost, path: "/api/me/mfa/totp/disable", access: signedIn, handler: a.disableTOTP},

		{method: http.MethodGet, path: "/api/degrees", access: signedIn, handler: a.listDegrees},
		{method: http.MethodGet, path: "/api/test/access", access: testTaker, handler: a.testAccess},
		{method: http.MethodGet, path: "/api/admin/access", access: tutorOnly, handler: a.adminAccess},

		// The tutor's group: /admin Grupo and Estudiantes (docs/product.md).
		{method: http.MethodGet, path: "/api/admin/group", access: tutorOnly, handler: a.getActiveGroup},
		{method: http.MethodPost, path: "/api/admin/group", access: tutorOnly, limit: rosterUploadLimit, tooLarge: rosterTooLarge, handler: a.loadGroup},
		{method: http.MethodPost, path: "/api/admin/group/students", access: tutorOnly, limit: 512 << 10, handler: a.addStudents},
		{method: http.MethodPost, path: "/api/admin/group/students/file", access: tutorOnly, limit: rosterUploadLimit, tooLarge: rosterTooLarge, handler: a.addStudentsFile},
		{method: http.MethodPost, path: "/api/admin/group/students/remove", access: tutorOnly, handler: a.removeStudent},
		{method: http.MethodPost, path: "/api/admin/group/finalize", access: tutorOnly, handler: a.finalizeGroup},
		{method: http.MethodGet, path: "/api/admin/group/students", access: tutorOnly, handler: a.activeGroupStudents},
		{method: http.MethodGet, path: "/api/admin/groups", access: tutorOnly, handler: a.groupHistory},
		{method: http.MethodGet, path: "/api/admin/groups/:id", access: tutorOnly, handler: a.getGroup},
		{method: http.MethodGet, path: "/api/admin/students/search", access: tutorOnly, handler: a.searchStudents},
		{method: http.MethodPost, path: "/api/admin/students/:id/password-reset", access: tutorOnly, handler: a.issuePasswordReset},

		// The simulator (docs/api-simulator.md). Starting needs access to /test;
		// an attempt already started belongs to its student, whose uploads must
		// still land even if the group was finalized meanwhile.
		{method: http.MethodGet, path: "/api/exam/overview", access: testTaker, handler: a.examOverview},
		{method: http.MethodPost, path: "/api/attempts", access: testTaker, handler: a.startAttempt},
		{method: http.MethodGet, path: "/api/attempts/:id", access: signedIn, handler: a.getAttempt},
		{method: http.MethodPost, path: "/api/attempts/:id/advance", access: signedIn, handler: a.advanceAttempt},
		{method: http.MethodPost, path: "/api/attempts/:id/skip", access: signedIn, handler: a.skipPhase},
		{method: http.MethodPost, path: "/api/attempts/:id/pause", access: signedIn, handler: a.pauseAttempt},
		{method: http.MethodPost, path: "/api/attempts/:id/resume", access: signedIn, handler: a.resumeAttempt},
		{method: http.MethodPut, path: "/api/attempts/:id/notes", access: signedIn, limit: 256 << 10, handler: a.saveNotes},
		{method: http.MethodPost, path: "/api/attempts/:id/self-assessment", access: signedIn, handler: a.selfAssess},
		{method: http.MethodPost, path: "/api/attempts/:id/abandon", access: signedIn, handler: a.abandonAttempt},
		{method: http.MethodPost, path: "/api/attempts/:id/grade", access: tutorOnly, handler: a.gradeAttempt},
		{method: http.MethodPut, path: "/api/attempts/:id/recordings/:rid", access: signedIn, handler: a.putRecording},
		{method: http.MethodPut, path: "/api/attempts/:id/recordings/:rid/chunks/:seq", access: signedIn, limit: exams.MaxChunkBytes + 1,
			tooLarge: "El fragmento de audio supera los 2 MB.", handler: a.putChunk},
		{method: http.MethodPost, path: "/api/attempts/:id/recordings/:rid/complete", access: signedIn, limit: 256 << 10, handler: a.completeRecording},
		{method: http.MethodGet, path: "/api/attempts/:id/recordings/:rid/media", access: signedIn, handler: a.recordingMedia},
		{method: http.MethodDelete, path: "/api/attempts/:id/recordings/:rid", access: signedIn, handler: a.deleteRecording},
		{method: http.MethodPut, path: "/api/attempts/:id/recordings/:rid/transcript", access: signedIn, limit: 1 << 20, handler: a.putTranscript},
		{method: http.MethodGet, path: "/api/me/attempts", access: signedIn, handler: a.myAttempts},
		{method: http.MethodGet, path: "/api/me/progress", access: signedIn, handler: a.myProgress},
		{method: http.MethodGet, path: "/api/rubric", access: signedIn, handler: a.getRubric},

		// Tutor tools: grading, case bank, configuration.
		{method: http.MethodGet, path: "/api/admin/grading", access: tutorOnly, handler: a.gradingQueue},
		{method: http.MethodGet, path: "/api/admin/students/:id/attempts", access: tutorOnly, handler: a.studentAttempts},
		{method: http.MethodGet, path: "/api/admin/cases", access: tutorOnly, handler: a.listCases},
		{method: http.MethodPost, path: "/api/admin/cases", access: tutorOnly, handler: a.createCase},
		{method: http.MethodPost, path: "/api/admin/cases/import", access: tutorOnly, limit: catalog.MaxImportBytes + 64<<10,
			tooLarge: "El archivo supera el límite de 8 MB.", handler: a.importCases},
		{method: http.MethodGet, path: "/api/admin/cases/export", access: tutorOnly, handler: a.exportCases},
		{method: http.MethodGet, path: "/api/admin/cases/:id", access: tutorOnly, handler: a.getCase},
		{method: http.MethodPut, path: "/api/admin/cases/:id", access: tutorOnly, handler: a.updateCase},
		{method: http.MethodPost, path: "/api/admin/cases/:id/review", access: tutorOnly, handler: a.reviewCase},
		{method: http.MethodGet, path: "/api/admin/config/:degree", access: tutorOnly, handler: a.getDegreeConfig},
		{method: http.MethodPut, path: "/api/admin/config/:degree/blueprint", access: tutorOnly, handler: a.putBlueprint},
		{method: http.MethodPut, path: "/api/admin/config/:degree/rubric", access: tutorOnly, handler: a.putRubric},
		{method: http.MethodGet, path: "/api/admin/reports", access: tutorOnly, handler: a.groupReport},
		{method: http.MethodGet, path: "/api/admin/reports/export", access: tutorOnly, handler: a.exportGrades},

		// The course a tutor launched from (LTI, docs/lti.md): its roster
		// loads the group, its gradebook receives Simulacro grades.
		{method: http.MethodGet, path: "/api/admin/lti/courses", access: tutorOnly, handler: a.ltiCourses},
		{method: http.MethodPost, path: "/api/admin/lti/group", access: tutorOnly, handler: a.ltiLoadGroup},
		{method: http.MethodPost, path: "/api/admin/lti/group/update", access: tutorOnly, handler: a.ltiUpdateGroup},
		{method: http.MethodGet, path: "/api/admin/lti/line-items", access: tutorOnly, handler: a.ltiLineItems},
		{method: http.MethodPost, path: "/api/admin/lti/line-item", access: tutorOnly, handler: a.ltiLinkColumn},
		{method: http.MethodGet, path: "/api/admin/lti/attempts/:id/score", access: tutorOnly, handler: a.ltiScoreStatus},
		{method: http.MethodPost, path: "/api/admin/lti/attempts/:id/score", access: tutorOnly, handler: a.ltiSendScore},

		// LTI 1.3 tool endpoints for learning platforms and the browsers
		// they send (outside /api: pages and documents, not JSON API).
		// Public by nature: each validates its own single-use state, signed
		// token or code.
		{method: http.MethodGet, path: lti.LoginPath, access: public, handler: a.ltiLogin},
		{method: http.MethodPost, path: lti.LoginPath, access: public, handler: a.ltiLogin},
		{method: http.MethodPost, path: lti.LaunchPath, access: public, limit: 256 << 10, handler: a.ltiLaunch},
		{method: http.MethodPost, path: "/lti/continue", access: public, handler: a.ltiContinue},
		{method: http.MethodPost, path: "/lti/deep-link", access: public, handler: a.ltiDeepLink},
		{method: http.MethodGet, path: "/lti/jwks", access: public, handler: a.ltiJWKS},
		{method: http.MethodGet, path: "/lti/config.json", access: public, handler: a.ltiConfig},
	}
}
