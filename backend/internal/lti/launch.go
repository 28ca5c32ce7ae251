package lti

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/utpl/simulador/backend/internal/domain"
)

// LaunchPath is the tool's one launch URL (redirect_uri and
// target_link_uri); LoginPath is its login initiation URL.
const (
	LaunchPath = "/lti/launch"
	LoginPath  = "/lti/login"
)

// Timings of the launch.
const (
	stateLifetime = 10 * time.Minute // from login initiation to launch
	clockSkew     = time.Minute      // tolerated between the platform's clock and ours
	// HandoffLifetime is how long the code that carries a sign-in from the
	// course's frame to a new tab lives.
	HandoffLifetime  = 60 * time.Second
	deepLinkLifetime = time.Hour // to choose what a deep link opens
)

// Kinds of single-use records.
const (
	onceState    = "state"
	onceNonce    = "nonce"
	onceHandoff  = "handoff"
	onceDeepLink = "deeplink"
)

// LaunchError is a refused login or launch: Claim names what failed (a
// claim such as "aud" or "https://purl.imsglobal.org/spec/lti/claim/deployment_id",
// or "state", "id_token"), Reason says why in English for the log, and
// Message is the Spanish text of the page the person sees.
type LaunchError struct {
	Claim   string
	Reason  string
	Message string
	Status  int
}

func (e *LaunchError) Error() string { return e.Claim + ": " + e.Reason }

// Spanish texts of the refusal pages. MsgOtherBrowser is also the page of
// a launch the HTTP layer refuses because its browser did not start it.
const (
	msgMissing             = "Falta información para abrir el simulador desde la plataforma. Vuelva a abrir la actividad desde el curso."
	msgExpired             = "El inicio desde el curso caducó o ya se usó. Vuelva a abrir la actividad desde el curso."
	MsgOtherBrowser        = "El inicio desde el curso se empezó en otra ventana o navegador. Vuelva a abrir la actividad desde el curso."
	msgUnknownPlatform     = "La plataforma desde la que abrió el simulador no está registrada. Pida al administrador del simulador que la registre."
	msgUnknownDeployment   = "Esta instalación de la herramienta en la plataforma no está registrada en el simulador. Pida al administrador que registre su identificador de implementación (deployment ID)."
	msgUnverified          = "No se pudo verificar el inicio de sesión enviado por la plataforma. Vuelva a abrir la actividad desde el curso; si el problema continúa, avise al administrador."
	msgClock               = "El inicio de sesión enviado por la plataforma está fuera de hora. Vuelva a abrir la actividad desde el curso; si el problema continúa, avise al administrador."
	msgReplay              = "Este inicio de sesión ya se usó. Vuelva a abrir la actividad desde el curso."
	msgUnreachable         = "No se pudo contactar a la plataforma para verificar el inicio de sesión. Intente de nuevo en unos minutos."
	msgUnsupported         = "El simulador no puede abrir este tipo de enlace de la plataforma."
	msgNoEmail             = "La plataforma no envió su correo electrónico, que el simulador necesita para identificarle. Pida al administrador que configure la herramienta para compartir el correo (privacidad «pública»)."
	msgTutorsNotAllowed    = "Su rol en el curso (docente) no da acceso al simulador desde esta plataforma. Pida al administrador que habilite a los tutores para esta plataforma, o ingrese con su cuenta del simulador."
	msgNoRole              = "Su rol en el curso no da acceso al simulador: pueden abrirlo los estudiantes y los docentes del curso."
	msgTutorByEmail        = "Su correo corresponde a una cuenta de tutor del simulador. Por seguridad, un inicio desde el curso no abre una cuenta de tutor existente: ingrese al simulador con su cuenta (correo y contraseña, o «Iniciar con UTPL»)."
	msgTutorAccount        = "Esta cuenta de tutor no se abre desde el curso: ingrese al simulador con su propia cuenta (correo, contraseña y código de verificación, o «Iniciar con UTPL»)."
	msgTutorsMicrosoftOnly = "En este simulador los tutores ingresan solo con su cuenta de la universidad («Iniciar con UTPL»), no desde el curso."
	msgTooMany             = "Hubo demasiados inicios desde su red en poco tiempo. Espere unos minutos e intente de nuevo."
)

func refuse(claim, reason, message string, status int) *LaunchError {
	return &LaunchError{Claim: claim, Reason: reason, Message: message, Status: status}
}

// LoginRequest is an OIDC third-party login initiation.
type LoginRequest struct {
	Issuer, LoginHint, TargetLinkURI string
	MessageHint                      string // lti_message_hint, echoed to the platform
	ClientID, DeploymentID           string // optional
	ClientAddress                    string // for the rate limit
}

// LoginResult is where to send the browser, and the state it must bring
// back (bound to it by a cookie).
type LoginResult struct {
	Redirect string
	State    string
}

// stateData is what a login remembers until its launch.
type stateData struct {
	Platform string `json:"p"`
	Nonce    string `json:"n"`
	Target   string `json:"t"`
}

// Login answers a platform's login initiation: it checks the platform and
// the target, stores a state and a nonce for the launch, and returns the
// authentication request to the platform's authorization endpoint.
func (s *Service) Login(ctx context.Context, r LoginRequest, toolURL string) (LoginResult, error) {
	switch {
	case r.Issuer == "":
		return LoginResult{}, refuse("iss", "login initiation without iss", msgMissing, http.StatusBadRequest)
	case r.LoginHint == "":
		return LoginResult{}, refuse("login_hint", "login initiation without login_hint", msgMissing, http.StatusBadRequest)
	case r.TargetLinkURI == "":
		return LoginResult{}, refuse("target_link_uri", "login initiation without target_link_uri", msgMissing, http.StatusBadRequest)
	}
	if ok, err := s.allowLogin(ctx, r.ClientAddress); err != nil {
		return LoginResult{}, err
	} else if !ok {
		return LoginResult{}, refuse("login", "too many login initiations from "+r.ClientAddress, msgTooMany, http.StatusTooManyRequests)
	}
	platforms, err := s.store.ListLTIPlatforms(ctx)
	if err != nil {
		return LoginResult{}, err
	}
	var matches []domain.LTIPlatform
	for _, p := range platforms {
		if p.Issuer == r.Issuer && (r.ClientID == "" || p.ClientID == r.ClientID) {
			matches = append(matches, p)
		}
	}
	switch {
	case len(matches) == 0:
		return LoginResult{}, refuse("iss", fmt.Sprintf("no registration for issuer %q and client_id %q", r.Issuer, r.ClientID), msgUnknownPlatform, http.StatusForbidden)
	case len(matches) > 1:
		return LoginResult{}, refuse("client_id", fmt.Sprintf("issuer %q has several registrations and the login names no client_id", r.Issuer), msgUnknownPlatform, http.StatusBadRequest)
	}
	p := matches[0]
	if r.DeploymentID != "" && !slices.Contains(p.DeploymentIDs, r.DeploymentID) {
		return LoginResult{}, refuse("lti_deployment_id", fmt.Sprintf("deployment %q is not registered for %s", r.DeploymentID, p.Issuer), msgUnknownDeployment, http.StatusForbidden)
	}
	if !isLaunchURL(r.TargetLinkURI, toolURL) {
		return LoginResult{}, refuse("target_link_uri", fmt.Sprintf("target_link_uri %q is not this tool's launch URL %s", r.TargetLinkURI, toolURL+LaunchPath), msgUnsupported, http.StatusBadRequest)
	}
	state, nonce := randomToken(), randomToken()
	data, _ := json.Marshal(stateData{Platform: p.ID, Nonce: nonce, Target: r.TargetLinkURI})
	if err := s.store.PutLTIOnce(ctx, domain.LTIOnce{Kind: onceState, Key: hashKey(state), Data: string(data),
		ExpiresAt: s.now().UTC().Add(stateLifetime)}); err != nil {
		return LoginResult{}, err
	}
	auth, err := url.Parse(p.AuthURL)
	if err != nil {
		return LoginResult{}, fmt.Errorf("platform %s auth URL: %w", p.ID, err)
	}
	q := auth.Query()
	for k, v := range map[string]string{
		"scope": "openid", "response_type": "id_token", "response_mode": "form_post", "prompt": "none",
		"client_id": p.ClientID, "redirect_uri": toolURL + LaunchPath, "login_hint": r.LoginHint, "state": state, "nonce": nonce,
	} {
		q.Set(k, v)
	}
	if r.MessageHint != "" {
		q.Set("lti_message_hint", r.MessageHint)
	}
	auth.RawQuery = q.Encode()
	return LoginResult{Redirect: auth.String(), State: state}, nil
}

// isLaunchURL reports whether target is this tool's launch URL (any
// query: a placement may add one).
func isLaunchURL(target, toolURL string) bool {
	u, err := url.Parse(target)
	return err == nil && Origin(target) == Origin(toolURL) && u.Path == LaunchPath
}

// LaunchRequest is the platform's authentication response, posted by the
// browser to the launch URL.
type LaunchRequest struct {
	IDToken, State string
	// StateCookie is the value of the cookie the login set for this state;
	// "" when the browser did not send it (third-party cookies blocked in
	// the course's frame).
	StateCookie string
	ToolURL     string
}

// Launch is a validated launch.
type Launch struct {
	Platform     domain.LTIPlatform
	MessageType  string
	DeploymentID string
	Subject      string
	Email        string
	Name         string
	GivenName    string
	FamilyName   string
	Roles        []string
	Context      *Context
	ResourceLink string
	Custom       map[string]string
	// DocumentTarget is launch_presentation.document_target: "iframe",
	// "window" or "" when not said.
	DocumentTarget string
	// ReturnURL is launch_presentation.return_url: a page of the platform
	// that showed the launch (Canvas: under the institution's own domain).
	ReturnURL   string
	Memberships string   // NRPS context_memberships_url
	LineItems   string   // AGS lineitems
	GradeScopes []string // AGS scopes
	DeepLinking *DeepLinkingSettings
	// Bound is true when the browser that posted the launch is the one
	// that started the login (its state cookie came back).
	Bound bool
}

// FrameOrigins are the origins this launch says the platform shows it
// under (its return URLs), which a registration need not list: they come
// from a token the registered platform signed.
func (l *Launch) FrameOrigins() []string {
	var out []string
	for _, u := range []string{l.ReturnURL, l.deepLinkReturn()} {
		if o := Origin(u); o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	return out
}

func (l *Launch) deepLinkReturn() string {
	if l.DeepLinking == nil {
		return ""
	}
	return l.DeepLinking.ReturnURL
}

// Context is the course of a launch.
type Context struct {
	ID, Label, Title string
}

// DeepLinkingSettings are what the platform accepts back from a deep
// linking request.
type DeepLinkingSettings struct {
	ReturnURL      string   `json:"deep_link_return_url"`
	AcceptTypes    []string `json:"accept_types"`
	AcceptMultiple *bool    `json:"accept_multiple"`
	Title          string   `json:"title"`
	Data           string   `json:"data"`
}

type idClaims struct {
	jwt.Claims
	AuthorizedParty string `json:"azp"`
	Nonce           string `json:"nonce"`
	Email           string `json:"email"`
	Name            string `json:"name"`
	GivenName       string `json:"given_name"`
	FamilyName      string `json:"family_name"`

	MessageType  string   `json:"https://purl.imsglobal.org/spec/lti/claim/message_type"`
	Version      string   `json:"https://purl.imsglobal.org/spec/lti/claim/version"`
	DeploymentID string   `json:"https://purl.imsglobal.org/spec/lti/claim/deployment_id"`
	TargetLink   string   `json:"https://purl.imsglobal.org/spec/lti/claim/target_link_uri"`
	Roles        []string `json:"https://purl.imsglobal.org/spec/lti/claim/roles"`
	ResourceLink *struct {
		ID string `json:"id"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/resource_link"`
	Context *struct {
		ID    string `json:"id"`
		Label string `json:"label"`
		Title string `json:"title"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/context"`
	Custom       map[string]any `json:"https://purl.imsglobal.org/spec/lti/claim/custom"`
	Presentation *struct {
		DocumentTarget string `json:"document_target"`
		ReturnURL      string `json:"return_url"`
	} `json:"https://purl.imsglobal.org/spec/lti/claim/launch_presentation"`
	NamesRoles *struct {
		URL string `json:"context_memberships_url"`
	} `json:"https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"`
	Grades *struct {
		Scope     []string `json:"scope"`
		LineItems string   `json:"lineitems"`
	} `json:"https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"`
	DeepLinking *DeepLinkingSettings `json:"https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"`
}

// Launch validates an authentication response: the state (single use,
// from this browser when its cookie came back), the token's signature
// with the platform's published keys, iss, aud and azp, exp, iat and nbf
// with a small skew, the nonce (single use), the deployment, the message
// type and version, and the target link. Each refusal is a *LaunchError.
func (s *Service) Launch(ctx context.Context, r LaunchRequest) (*Launch, error) {
	if r.State == "" {
		return nil, refuse("state", "launch without state", msgMissing, http.StatusBadRequest)
	}
	if r.IDToken == "" {
		return nil, refuse("id_token", "launch without id_token", msgMissing, http.StatusBadRequest)
	}
	now := s.now().UTC()
	rec, err := s.store.TakeLTIOnce(ctx, onceState, hashKey(r.State), now)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, refuse("state", "unknown, used or expired state", msgExpired, http.StatusBadRequest)
	}
	if err != nil {
		return nil, err
	}
	if r.StateCookie != "" && r.StateCookie != r.State {
		return nil, refuse("state", "the state cookie does not match the state parameter", MsgOtherBrowser, http.StatusBadRequest)
	}
	var st stateData
	if err := json.Unmarshal([]byte(rec.Data), &st); err != nil {
		return nil, fmt.Errorf("state record: %w", err)
	}
	p, err := s.store.GetLTIPlatform(ctx, st.Platform)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, refuse("iss", "the platform of this login was removed", msgUnknownPlatform, http.StatusForbidden)
	}
	if err != nil {
		return nil, err
	}

	tok, err := jwt.ParseSigned(r.IDToken, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return nil, refuse("id_token", "unreadable token or algorithm other than RS256: "+err.Error(), msgUnverified, http.StatusUnauthorized)
	}
	kid := tok.Headers[0].KeyID
	if kid == "" {
		return nil, refuse("kid", "the token's header names no key (kid)", msgUnverified, http.StatusUnauthorized)
	}
	key, err := s.remote.key(ctx, p.JWKSURL, kid)
	switch {
	case errors.Is(err, errUnknownKey):
		return nil, refuse("kid", fmt.Sprintf("key %q is not in the platform's key set %s (refreshed)", kid, p.JWKSURL), msgUnverified, http.StatusUnauthorized)
	case err != nil:
		return nil, refuse("kid", "cannot read the platform's keys: "+err.Error(), msgUnreachable, http.StatusBadGateway)
	}
	pub, ok := key.Key.(*rsa.PublicKey)
	if !ok {
		return nil, refuse("kid", fmt.Sprintf("key %q is not an RSA public key", kid), msgUnverified, http.StatusUnauthorized)
	}
	var c idClaims
	if err := tok.Claims(pub, &c); err != nil {
		return nil, refuse("signature", "signature or claims invalid: "+err.Error(), msgUnverified, http.StatusUnauthorized)
	}

	if c.Issuer != p.Issuer {
		return nil, refuse("iss", fmt.Sprintf("iss %q is not the login's platform %q", c.Issuer, p.Issuer), msgUnverified, http.StatusUnauthorized)
	}
	if !c.Audience.Contains(p.ClientID) {
		return nil, refuse("aud", fmt.Sprintf("aud %v does not include client_id %q", []string(c.Audience), p.ClientID), msgUnverified, http.StatusUnauthorized)
	}
	if len(c.Audience) > 1 && c.AuthorizedParty == "" {
		return nil, refuse("azp", "several audiences and no azp", msgUnverified, http.StatusUnauthorized)
	}
	if c.AuthorizedParty != "" && c.AuthorizedParty != p.ClientID {
		return nil, refuse("azp", fmt.Sprintf("azp %q is not client_id %q", c.AuthorizedParty, p.ClientID), msgUnverified, http.StatusUnauthorized)
	}
	switch {
	case c.Expiry == nil:
		return nil, refuse("exp", "no exp", msgUnverified, http.StatusUnauthorized)
	case now.After(c.Expiry.Time().Add(clockSkew)):
		return nil, refuse("exp", fmt.Sprintf("expired at %s", c.Expiry.Time().UTC().Format(time.RFC3339)), msgClock, http.StatusUnauthorized)
	case c.IssuedAt == nil:
		return nil, refuse("iat", "no iat", msgUnverified, http.StatusUnauthorized)
	case c.IssuedAt.Time().After(now.Add(clockSkew)):
		return nil, refuse("iat", fmt.Sprintf("issued in the future (%s)", c.IssuedAt.Time().UTC().Format(time.RFC3339)), msgClock, http.StatusUnauthorized)
	case c.NotBefore != nil && c.NotBefore.Time().After(now.Add(clockSkew)):
		return nil, refuse("nbf", "not valid yet", msgClock, http.StatusUnauthorized)
	}
	if c.Nonce == "" || c.Nonce != st.Nonce {
		return nil, refuse("nonce", "nonce missing or not the one of this login", msgUnverified, http.StatusUnauthorized)
	}
	err = s.store.PutLTIOnce(ctx, domain.LTIOnce{Kind: onceNonce, Key: hashKey(p.Issuer, c.Nonce), ExpiresAt: c.Expiry.Time().Add(clockSkew)})
	if errors.Is(err, domain.ErrConflict) {
		return nil, refuse("nonce", "nonce already used", msgReplay, http.StatusUnauthorized)
	}
	if err != nil {
		return nil, err
	}
	if !slices.Contains(p.DeploymentIDs, c.DeploymentID) {
		return nil, refuse(claimDeploymentID, fmt.Sprintf("deployment %q is not registered for %s", c.DeploymentID, p.Issuer), msgUnknownDeployment, http.StatusForbidden)
	}
	if c.MessageType != MessageResourceLink && c.MessageType != MessageDeepLinkingRequest {
		return nil, refuse(claimMessageType, fmt.Sprintf("unsupported message type %q", c.MessageType), msgUnsupported, http.StatusBadRequest)
	}
	if c.Version != Version {
		return nil, refuse(claimVersion, fmt.Sprintf("version %q is not %s", c.Version, Version), msgUnsupported, http.StatusBadRequest)
	}
	if !isLaunchURL(c.TargetLink, r.ToolURL) || (st.Target != "" && c.TargetLink != st.Target) {
		return nil, refuse(claimTargetLinkURI, fmt.Sprintf("target_link_uri %q is not the login's %q on this tool", c.TargetLink, st.Target), msgUnverified, http.StatusBadRequest)
	}

	l := &Launch{
		Platform: p, MessageType: c.MessageType, DeploymentID: c.DeploymentID, Subject: c.Subject, Email: domain.NormalizeEmail(c.Email),
		Name: strings.TrimSpace(c.Name), GivenName: strings.TrimSpace(c.GivenName), FamilyName: strings.TrimSpace(c.FamilyName),
		Roles: c.Roles, Custom: stringMap(c.Custom), Bound: r.StateCookie == r.State,
	}
	if c.Context != nil && c.Context.ID != "" {
		l.Context = &Context{ID: c.Context.ID, Label: c.Context.Label, Title: c.Context.Title}
	}
	if c.Presentation != nil {
		l.DocumentTarget = c.Presentation.DocumentTarget
		if CheckPlatformURL(c.Presentation.ReturnURL) == nil {
			l.ReturnURL = c.Presentation.ReturnURL
		}
	}
	if c.NamesRoles != nil && CheckPlatformURL(c.NamesRoles.URL) == nil {
		l.Memberships = c.NamesRoles.URL
	}
	if c.Grades != nil {
		l.GradeScopes = c.Grades.Scope
		if CheckPlatformURL(c.Grades.LineItems) == nil {
			l.LineItems = c.Grades.LineItems
		}
	}
	switch c.MessageType {
	case MessageResourceLink:
		if c.ResourceLink == nil || c.ResourceLink.ID == "" {
			return nil, refuse(claimResourceLink, "resource link launch without resource_link.id", msgUnverified, http.StatusBadRequest)
		}
		if c.Subject == "" {
			return nil, refuse("sub", "anonymous launch (no sub): the simulator needs to know who launched", msgUnsupported, http.StatusBadRequest)
		}
		if c.Roles == nil { // absent or null; an empty array is a launch with no role
			return nil, refuse(claimRoles, "resource link launch without the roles claim", msgUnverified, http.StatusBadRequest)
		}
		l.ResourceLink = c.ResourceLink.ID
	case MessageDeepLinkingRequest:
		if c.DeepLinking == nil || CheckPlatformURL(c.DeepLinking.ReturnURL) != nil {
			return nil, refuse(claimDeepLinkingSettings, "deep linking request without a usable deep_link_return_url", msgUnverified, http.StatusBadRequest)
		}
		if len(c.DeepLinking.AcceptTypes) > 0 && !slices.Contains(c.DeepLinking.AcceptTypes, "ltiResourceLink") {
			return nil, refuse(claimDeepLinkingSettings, fmt.Sprintf("accept_types %v leave out ltiResourceLink", c.DeepLinking.AcceptTypes), msgUnsupported, http.StatusBadRequest)
		}
		l.DeepLinking = c.DeepLinking
	}
	return l, nil
}

// stringMap keeps the custom parameters as strings (the platform sends
// strings; anything else is written as JSON).
func stringMap(m map[string]any) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		switch x := v.(type) {
		case string:
			out[k] = x
		case nil:
		default:
			b, _ := json.Marshal(x)
			out[k] = string(b)
		}
	}
	return out
}
