package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/lti"
)

// The LTI 1.3 endpoints learning platforms and browsers reach
// (docs/lti.md): login initiation, launch, the sign-in hand-off to a new
// tab, the deep linking choice, the tool's keys and its Canvas
// configuration. Their pages are HTML for people, in Spanish; refusals
// are logged in English with the claim that failed.

const (
	ltiTitle       = "Simulador del Examen Complexivo Oral"
	ltiDescription = "Ensayo del examen complexivo oral: casos, fases cronometradas, grabación, autoevaluación y calificación del tutor."
)

// toolURL is the tool's public base URL: PUBLIC_URL, or the scheme and
// host this request came to.
func (a *api) toolURL(c echo.Context) string {
	if a.cfg.PublicURL != "" {
		return a.cfg.PublicURL
	}
	scheme := "http"
	if isHTTPS(c.Request()) {
		scheme = "https"
	}
	return scheme + "://" + c.Request().Host
}

// ltiStateCookie names the cookie that binds a login's state to the
// browser that started it: one per state, so two launches at once (two
// tabs) do not overwrite each other's.
func (a *api) ltiStateCookie(state string) string {
	sum := sha256.Sum256([]byte(state))
	name := "simulador_lti_" + hex.EncodeToString(sum[:8])
	if a.secureCookies() {
		return "__Secure-" + name
	}
	return name
}

// setStateCookie is SameSite=None so it comes back with the platform's
// cross-site form post, Partitioned so browsers that block third-party
// cookies still keep it for the course's frame (keyed to the course's
// site), and confined to /lti. Without Secure (COOKIE_SECURE=never)
// browsers refuse SameSite=None: it is Lax then, and a launch that comes
// without it is treated as unbound (the sign-in goes through a new tab).
func (a *api) setStateCookie(c echo.Context, state string) {
	ck := &http.Cookie{Name: a.ltiStateCookie(state), Value: state, Path: "/lti", HttpOnly: true, MaxAge: 600,
		Secure: a.secureCookies(), SameSite: http.SameSiteLaxMode}
	if a.secureCookies() {
		ck.SameSite, ck.Partitioned = http.SameSiteNoneMode, true
	}
	c.SetCookie(ck)
}

func (a *api) clearStateCookie(c echo.Context, state string) {
	ck := &http.Cookie{Name: a.ltiStateCookie(state), Value: "", Path: "/lti", HttpOnly: true, MaxAge: -1,
		Secure: a.secureCookies(), SameSite: http.SameSiteLaxMode}
	if a.secureCookies() {
		ck.SameSite, ck.Partitioned = http.SameSiteNoneMode, true
	}
	c.SetCookie(ck)
}

// ltiLogin answers a platform's OIDC login initiation (GET or POST).
func (a *api) ltiLogin(c echo.Context) error {
	res, err := a.lti.Login(c.Request().Context(), lti.LoginRequest{
		Issuer: c.FormValue("iss"), LoginHint: c.FormValue("login_hint"), TargetLinkURI: c.FormValue("target_link_uri"),
		MessageHint: c.FormValue("lti_message_hint"), ClientID: c.FormValue("client_id"),
		// The IMS name is lti_deployment_id; Canvas documents deployment_id.
		DeploymentID: firstNonEmpty(c.FormValue("lti_deployment_id"), c.FormValue("deployment_id")), ClientAddress: c.RealIP(),
	}, a.toolURL(c))
	if err != nil {
		return a.ltiRefused(c, "login", err)
	}
	a.setStateCookie(c, res.State)
	return c.Redirect(http.StatusFound, res.Redirect)
}

// ltiLaunch validates a launch. A person whose browser started the login
// in a tab of its own gets a session and the resource's page at once; in
// the course's frame (where the session cookie cannot be used), or
// without the state cookie, they get a page whose button opens the
// simulator in a new tab with a one-time code. A deep linking request
// gets the choice of what the link opens.
func (a *api) ltiLaunch(c echo.Context) error {
	ctx := c.Request().Context()
	state, cookie := c.FormValue("state"), ""
	if state != "" {
		if ck, err := c.Cookie(a.ltiStateCookie(state)); err == nil {
			cookie = ck.Value
		}
		a.clearStateCookie(c, state)
	}
	l, err := a.lti.Launch(ctx, lti.LaunchRequest{IDToken: c.FormValue("id_token"), State: state, StateCookie: cookie, ToolURL: a.toolURL(c)})
	if err != nil {
		return a.ltiRefused(c, "launch", err)
	}
	if l.MessageType == lti.MessageDeepLinkingRequest {
		a.log.Info("lti deep linking request", "platform", l.Platform.Issuer, "sub", l.Subject)
		return a.deepLinkPicker(c, l)
	}
	u, target, err := a.lti.SignIn(ctx, l)
	if err != nil {
		return a.ltiRefused(c, "launch", err)
	}
	dest := c.Request().Header.Get("Sec-Fetch-Dest")
	framed := dest == "iframe" || dest == "frame" || (dest == "" && l.DocumentTarget == "iframe")
	a.log.Info("lti launch", "platform", l.Platform.Issuer, "sub", l.Subject, "user", u.ID, "role", u.Role, "framed", framed, "bound", l.Bound)
	if l.Bound && !framed {
		if err := a.startSession(c, u, auth.MethodLTI); err != nil {
			return err
		}
		return c.Redirect(http.StatusSeeOther, lti.SafeTarget(target))
	}
	code, err := a.lti.NewHandoff(ctx, u.ID, target)
	if err != nil {
		return err
	}
	return a.ltiPage(c, http.StatusOK, true, nil, handoffTemplate, map[string]any{
		"Name": firstNonEmpty(u.GivenName, u.DisplayName, u.Mail), "Code": code, "Seconds": int(lti.HandoffLifetime / time.Second)},
		l.FrameOrigins()...)
}

func firstNonEmpty(v ...string) string {
	for _, s := range v {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// ltiContinue uses a hand-off code in the new tab: a session, then the
// resource's page.
func (a *api) ltiContinue(c echo.Context) error {
	u, target, err := a.lti.TakeHandoff(c.Request().Context(), c.FormValue("code"))
	if err != nil {
		return a.ltiRefused(c, "continue", err) // a page of its own tab: not framable
	}
	if err := a.startSession(c, u, auth.MethodLTI); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, lti.SafeTarget(target))
}

// deepLinkPicker lets the instructor choose what the new link opens.
func (a *api) deepLinkPicker(c echo.Context, l *lti.Launch) error {
	ctx := c.Request().Context()
	token, err := a.lti.StartDeepLink(ctx, l)
	if err != nil {
		return err
	}
	degrees, err := a.catalog.Degrees(ctx)
	if err != nil {
		return err
	}
	type degreeAreas struct {
		Name  string
		Areas []string
	}
	var list []degreeAreas
	for _, d := range degrees {
		areas, err := a.catalog.Areas(ctx, d.ID)
		if err != nil {
			return err
		}
		list = append(list, degreeAreas{Name: d.Nombre, Areas: areas})
	}
	course := ""
	if l.Context != nil {
		course = l.Context.Title
	}
	return a.ltiPage(c, http.StatusOK, true, nil, pickerTemplate, map[string]any{
		"Token": token, "Degrees": list, "Course": course, "Difficulties": []struct{ Value, Label string }{
			{"basico", "Básico"}, {"intermedio", "Intermedio"}, {"avanzado", "Avanzado"}},
	}, l.FrameOrigins()...)
}

// ltiDeepLink signs the choice and posts it back to the platform.
func (a *api) ltiDeepLink(c echo.Context) error {
	resp, err := a.lti.FinishDeepLink(c.Request().Context(), c.FormValue("token"), lti.DeepLinkChoice{
		Mode: c.FormValue("modo"), Area: c.FormValue("area"), Difficulty: c.FormValue("dificultad"), Degree: c.FormValue("carrera"),
		Title: c.FormValue("titulo"),
	}, a.toolURL(c))
	if err != nil {
		return a.ltiRefused(c, "deep link", err)
	}
	return a.ltiPage(c, http.StatusOK, true, []string{lti.Origin(resp.ReturnURL)}, autoPostTemplate, map[string]any{
		"Action": resp.ReturnURL, "JWT": resp.JWT}, lti.Origin(resp.ReturnURL))
}

// ltiJWKS publishes the tool's public keys.
func (a *api) ltiJWKS(c echo.Context) error {
	set, err := a.lti.Keys().JWKS(c.Request().Context())
	if err != nil {
		return err
	}
	// Revalidated on every fetch: after `lti keys rotate` the new key signs
	// at once, so a key set kept by a CDN (Firebase Hosting stores a public
	// answer with a max-age) or a platform would lack its kid.
	c.Response().Header().Set("Cache-Control", "no-cache")
	return c.JSON(http.StatusOK, set)
}

// ltiConfig is the Canvas developer key's JSON configuration.
func (a *api) ltiConfig(c echo.Context) error {
	c.Response().Header().Set("Cache-Control", "public, max-age=300")
	return c.JSON(http.StatusOK, lti.CanvasConfig(a.toolURL(c), ltiTitle, ltiDescription))
}

// ltiRefused answers a refused LTI request with a Spanish page (which the
// course's frame may show, except the new tab's) and logs why in English.
func (a *api) ltiRefused(c echo.Context, step string, err error) error {
	framable := step != "continue"
	var le *lti.LaunchError
	if errors.As(err, &le) {
		a.log.Warn("lti "+step+" refused", "claim", le.Claim, "reason", le.Reason, "ip", c.RealIP())
		return a.ltiPage(c, le.Status, framable, nil, errorTemplate, map[string]any{"Message": le.Message})
	}
	var ue *domain.UserError
	if errors.As(err, &ue) {
		a.log.Info("lti "+step+" refused", "code", ue.Code, "err", err)
		return a.ltiPage(c, http.StatusBadRequest, framable, nil, errorTemplate, map[string]any{"Message": ue.Message})
	}
	a.log.Error("lti "+step+" failed", "err", err)
	return a.ltiPage(c, http.StatusInternalServerError, framable, nil, errorTemplate, map[string]any{
		"Message": "Ocurrió un error interno del simulador. Intente de nuevo en unos minutos; si el problema continúa, avise al administrador."})
}
