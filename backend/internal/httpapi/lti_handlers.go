package httpapi

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
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

// The state cookie binds a login to the browser that started it: it holds
// the states of this browser's logins in flight (the last few, so that two
// launches at once do not overwrite each other's), as "lti.<state>.<state>".
// It is SameSite=None so it comes back with the platform's cross-site form
// post, Partitioned so browsers that block third-party cookies still keep
// it for the course's frame (keyed to the course's site), and confined to
// /lti. Behind Firebase Hosting only a cookie named __session reaches the
// server, so there it is a __session cookie of its own: with Path=/lti it
// is another cookie than the session's (Path=/), which it never replaces,
// and it reaches no page but /lti/. Without Secure (COOKIE_SECURE=never)
// browsers refuse SameSite=None: it is Lax then, does not come back with
// the platform's post, and only framed launches go on (docs/lti.md).
const (
	ltiStateMark   = "lti."
	ltiStatesKept  = 4
	ltiStatePath   = "/lti"
	ltiStateMaxAge = 600
)

func (a *api) ltiStateCookie() string {
	switch {
	case a.cfg.FirebaseHosting:
		return firebaseCookie
	case a.secureCookies():
		return "__Secure-simulador_lti"
	}
	return "simulador_lti"
}

// ltiStates are the login states this browser holds, oldest first. Every
// cookie of that name is read: behind Hosting the session's __session
// comes along too.
func (a *api) ltiStates(c echo.Context) []string {
	var out []string
	for _, ck := range c.Request().Cookies() {
		if v, ok := strings.CutPrefix(ck.Value, ltiStateMark); ck.Name == a.ltiStateCookie() && ok {
			for _, st := range strings.Split(v, ".") {
				if st != "" && !slices.Contains(out, st) {
					out = append(out, st)
				}
			}
		}
	}
	return out
}

// setStates writes the state cookie (or deletes it when no state is left).
func (a *api) setStates(c echo.Context, states []string) {
	if len(states) > ltiStatesKept {
		states = states[len(states)-ltiStatesKept:]
	}
	ck := &http.Cookie{Name: a.ltiStateCookie(), Value: ltiStateMark + strings.Join(states, "."), Path: ltiStatePath, HttpOnly: true,
		MaxAge: ltiStateMaxAge, Secure: a.secureCookies(), SameSite: http.SameSiteLaxMode}
	if len(states) == 0 {
		ck.Value, ck.MaxAge = "", -1
	}
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
	a.setStates(c, append(a.ltiStates(c), res.State))
	return c.Redirect(http.StatusFound, res.Redirect)
}

// ltiLaunch validates a launch. A person whose browser started the login
// in a tab of its own gets a session and the resource's page at once; in
// the course's frame (where the session cookie cannot be used) they get a
// page whose button opens the simulator in a new tab with a one-time
// code. A deep linking request gets the choice of what the link opens.
//
// A launch whose state cookie did not come back (unbound) may have been
// posted by another browser than the one that logged in: an attacker's
// own unused launch, posted from a page of theirs, would otherwise sign
// the victim's browser in as the attacker (login CSRF). Such a launch
// goes on only when the browser says it is shown in a frame (a browser
// that blocks even partitioned cookies there): the hand-off page then
// renders only inside a registered platform's page (frame-ancestors), and
// a page of the attacker's can neither show it nor read its code. Posted
// to a tab, it is refused.
func (a *api) ltiLaunch(c echo.Context) error {
	ctx := c.Request().Context()
	state, cookie := c.FormValue("state"), ""
	if state != "" {
		held := a.ltiStates(c)
		if i := slices.Index(held, state); i >= 0 {
			cookie = state
			a.setStates(c, slices.Delete(held, i, i+1))
		} else if len(held) > 0 {
			cookie = held[len(held)-1] // this browser's logins are others: refused
		}
	}
	l, err := a.lti.Launch(ctx, lti.LaunchRequest{IDToken: c.FormValue("id_token"), State: state, StateCookie: cookie, ToolURL: a.toolURL(c)})
	if err != nil {
		return a.ltiRefused(c, "launch", err)
	}
	if l.MessageType == lti.MessageDeepLinkingRequest {
		a.log.Info("lti deep linking request", "platform", l.Platform.Issuer, "sub", l.Subject)
		return a.deepLinkPicker(c, l)
	}
	dest := c.Request().Header.Get("Sec-Fetch-Dest")
	inFrame := dest == "iframe" || dest == "frame"
	framed := inFrame || (dest == "" && l.DocumentTarget == "iframe")
	if !l.Bound && !inFrame {
		return a.ltiRefused(c, "launch", &lti.LaunchError{Claim: "state", Status: http.StatusBadRequest, Message: lti.MsgOtherBrowser,
			Reason: "the state cookie did not come back and the launch is not shown in a frame (Sec-Fetch-Dest " + strconv.Quote(dest) + ")"})
	}
	u, target, err := a.lti.SignIn(ctx, l)
	if err != nil {
		return a.ltiRefused(c, "launch", err)
	}
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
