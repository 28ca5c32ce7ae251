package ltitest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// Message types a course page can launch.
const (
	ResourceLink = "LtiResourceLinkRequest"
	DeepLinking  = "LtiDeepLinkingRequest"
)

// Message is one launch: who, from which course, what, and faults.
type Message struct {
	Sub     string            `json:"sub"`
	Type    string            `json:"type,omitempty"`    // ResourceLink (default) or DeepLinking
	Context string            `json:"context,omitempty"` // a course id; "" for none
	Target  string            `json:"target,omitempty"`  // launch_presentation.document_target
	Custom  map[string]string `json:"custom,omitempty"`
	// Nonce is the nonce claim (the browser flow uses the request's).
	Nonce string `json:"nonce,omitempty"`
	// TargetLinkURI defaults to the tool's launch URL.
	TargetLinkURI string `json:"targetLinkUri,omitempty"`
	// Data is echoed by the tool in a deep linking response.
	Data string `json:"data,omitempty"`

	// Faults: claims to set (after the defaults) or remove, a key that is
	// not published, another algorithm ("HS256": a shared-secret token),
	// a time shift of iat and exp.
	Set        map[string]any `json:"set,omitempty"`
	Remove     []string       `json:"remove,omitempty"`
	UnknownKey bool           `json:"unknownKey,omitempty"`
	KeyID      string         `json:"keyId,omitempty"`   // the header's kid instead of the signing key's
	NoKeyID    bool           `json:"noKeyId,omitempty"` // no kid in the header (signed with the published key)
	Alg        string         `json:"alg,omitempty"`
	Shift      time.Duration  `json:"shift,omitempty"`
}

const (
	claimBase = "https://purl.imsglobal.org/spec/lti/claim/"
	claimNRPS = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
	claimAGS  = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
	claimDL   = "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"
)

// Claims returns the id_token claims of m (before faults other than Set
// and Remove).
func (p *Platform) Claims(m Message) (map[string]any, error) {
	tool := p.toolURL()
	if tool == "" {
		return nil, errNoTool
	}
	p.mu.Lock()
	u, ok := p.users[m.Sub]
	var course *Course
	if m.Context != "" {
		course = p.courses[m.Context]
	}
	p.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("ltitest: no user %q", m.Sub)
	}
	if m.Context != "" && course == nil {
		return nil, fmt.Errorf("ltitest: no course %q", m.Context)
	}
	now := p.opts.Now().Add(m.Shift)
	typ := m.Type
	if typ == "" {
		typ = ResourceLink
	}
	target := m.TargetLinkURI
	if target == "" {
		target = tool + "/lti/launch"
	}
	c := map[string]any{
		"iss": p.base, "sub": u.Sub, "aud": p.opts.ClientID, "azp": p.opts.ClientID,
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(), "nonce": m.Nonce,
		"email": u.Email, "name": u.Name, "given_name": u.GivenName, "family_name": u.FamilyName,
		claimBase + "message_type":    typ,
		claimBase + "version":         "1.3.0",
		claimBase + "deployment_id":   p.opts.DeploymentID,
		claimBase + "target_link_uri": target,
		claimBase + "roles":           u.Roles,
		claimBase + "tool_platform":   map[string]any{"guid": "ltitest", "name": "Plataforma de prueba", "product_family_code": "ltitest"},
	}
	if u.Email == "" {
		delete(c, "email")
	}
	if m.Target != "" {
		c[claimBase+"launch_presentation"] = map[string]any{"document_target": m.Target, "locale": "es",
			"return_url": p.base + "/course/" + url.PathEscape(m.Context) + "?returned=1"}
	}
	custom := map[string]string{}
	if course != nil {
		c[claimBase+"context"] = map[string]any{"id": course.ID, "label": course.Label, "title": course.Title,
			"type": []string{"http://purl.imsglobal.org/vocab/lis/v2/course#CourseOffering"}}
		c[claimNRPS] = map[string]any{"context_memberships_url": p.base + "/nrps/" + url.PathEscape(course.ID), "service_versions": []string{"2.0"}}
		p.mu.Lock()
		offered := append([]string(nil), p.agsScopes...)
		p.mu.Unlock()
		c[claimAGS] = map[string]any{"scope": offered,
			"lineitems": p.base + "/ags/" + url.PathEscape(course.ID) + "/lineitems"}
		for k, v := range course.Custom {
			custom[k] = v
		}
	}
	for k, v := range m.Custom {
		custom[k] = v
	}
	if len(custom) > 0 {
		c[claimBase+"custom"] = custom
	}
	switch typ {
	case ResourceLink:
		c[claimBase+"resource_link"] = map[string]any{"id": "rl-" + m.Context, "title": "Simulador oral"}
	case DeepLinking:
		c[claimDL] = map[string]any{"deep_link_return_url": p.base + "/deep-link-return", "accept_types": []string{"link", "ltiResourceLink"},
			"accept_presentation_document_targets": []string{"iframe", "window"}, "accept_multiple": false, "auto_create": true,
			"title": "Simulador oral", "data": m.Data}
	}
	for k, v := range m.Set {
		c[k] = v
	}
	for _, k := range m.Remove {
		delete(c, k)
	}
	return c, nil
}

// IDToken mints the id_token of m, signed as m's faults say.
func (p *Platform) IDToken(m Message) (string, error) {
	c, err := p.Claims(m)
	if err != nil {
		return "", err
	}
	return p.sign(c, m)
}

func (p *Platform) sign(claims map[string]any, m Message) (string, error) {
	p.mu.Lock()
	key, kid, foreign := p.key, p.kid, p.foreign
	p.mu.Unlock()
	var sk jose.SigningKey
	switch {
	case m.Alg == "HS256":
		sk = jose.SigningKey{Algorithm: jose.HS256, Key: []byte("a-shared-secret-of-thirty-two-bytes!")}
	case m.UnknownKey:
		sk = jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: foreign, KeyID: kid}}
	case m.KeyID != "":
		sk = jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: m.KeyID}}
	case m.NoKeyID:
		sk = jose.SigningKey{Algorithm: jose.RS256, Key: key}
	default:
		sk = jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: kid}}
	}
	signer, err := jose.NewSigner(sk, (&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return obj.CompactSerialize()
}

// messageHint carries the launch through the tool's login initiation
// (lti_message_hint), as a platform's opaque hint does.
func messageHint(m Message) string {
	b, _ := json.Marshal(m)
	return base64.RawURLEncoding.EncodeToString(b)
}

func fromHint(h string) (Message, error) {
	var m Message
	b, err := base64.RawURLEncoding.DecodeString(h)
	if err == nil {
		err = json.Unmarshal(b, &m)
	}
	return m, err
}

// LoginURL is the tool's login initiation URL for m (what the course page
// opens).
func (p *Platform) LoginURL(m Message) string {
	tool := p.toolURL()
	q := url.Values{
		"iss": {p.base}, "login_hint": {m.Sub}, "target_link_uri": {tool + "/lti/launch"}, "lti_message_hint": {messageHint(m)},
		"client_id": {p.opts.ClientID}, "lti_deployment_id": {p.opts.DeploymentID},
	}
	return tool + "/lti/login?" + q.Encode()
}

// authorize is the OIDC authorization endpoint: it checks the tool's
// authentication request and posts the id_token back to its redirect URI.
func (p *Platform) authorize(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		fail(w, http.StatusBadRequest, "bad form: %v", err)
		return
	}
	f := r.Form
	tool := p.toolURL()
	switch {
	case f.Get("response_type") != "id_token":
		fail(w, http.StatusBadRequest, "response_type must be id_token")
	case !slices.Contains(strings.Fields(f.Get("scope")), "openid"):
		fail(w, http.StatusBadRequest, "scope must include openid")
	case f.Get("response_mode") != "form_post":
		fail(w, http.StatusBadRequest, "response_mode must be form_post")
	case f.Get("prompt") != "none":
		fail(w, http.StatusBadRequest, "prompt must be none")
	case f.Get("client_id") != p.opts.ClientID:
		fail(w, http.StatusBadRequest, "unknown client_id %q", f.Get("client_id"))
	case f.Get("redirect_uri") != tool+"/lti/launch":
		fail(w, http.StatusBadRequest, "redirect_uri %q is not registered", f.Get("redirect_uri"))
	case f.Get("nonce") == "" || f.Get("state") == "":
		fail(w, http.StatusBadRequest, "nonce and state are required")
	default:
		m, err := fromHint(f.Get("lti_message_hint"))
		if err != nil || m.Sub != f.Get("login_hint") {
			fail(w, http.StatusBadRequest, "lti_message_hint does not match login_hint")
			return
		}
		m.Nonce = f.Get("nonce")
		p.mu.Lock()
		if next := p.next; next != nil {
			p.next = nil
			m.Set, m.Remove, m.UnknownKey, m.KeyID, m.NoKeyID, m.Alg, m.Shift = next.Set, next.Remove, next.UnknownKey, next.KeyID, next.NoKeyID, next.Alg, next.Shift
		}
		p.mu.Unlock()
		p.note("auth " + m.Sub)
		token, err := p.IDToken(m)
		if err != nil {
			fail(w, http.StatusBadRequest, "%v", err)
			return
		}
		autoPost(w, f.Get("redirect_uri"), map[string]string{"id_token": token, "state": f.Get("state")})
	}
}

var postTemplate = template.Must(template.New("post").Parse(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Plataforma de prueba</title></head>
<body><form id="f" method="post" action="{{.Action}}">{{range $k, $v := .Fields}}<input type="hidden" name="{{$k}}" value="{{$v}}">{{end}}
<noscript><button type="submit">Continuar</button></noscript></form>
<script>document.getElementById('f').submit()</script></body></html>`))

// autoPost answers with a page that posts fields to action at once.
func autoPost(w http.ResponseWriter, action string, fields map[string]string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = postTemplate.Execute(w, map[string]any{"Action": action, "Fields": fields})
}

var courseTemplate = template.Must(template.New("course").Parse(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>{{.Title}} · Plataforma de prueba</title>
<style>body{font-family:sans-serif;margin:1rem}iframe{width:100%;height:640px;border:1px solid #999}</style></head>
<body><h1>{{.Title}}</h1>
{{if .Window}}<p><a id="open-tool" href="{{.URL}}" target="_blank" rel="noopener">Abrir el simulador en una pestaña nueva</a></p>
{{else}}<iframe id="tool" title="Simulador oral" src="{{.URL}}" allow="microphone *; clipboard-write *"></iframe>{{end}}
</body></html>`))

// coursePage shows a course with the tool in a frame, or a link that
// opens it in a new tab (open=window), or the deep linking picker in a
// frame (open=deeplink).
func (p *Platform) coursePage(w http.ResponseWriter, r *http.Request) {
	ctxID := r.PathValue("context")
	p.mu.Lock()
	course := p.courses[ctxID]
	p.mu.Unlock()
	if course == nil {
		fail(w, http.StatusNotFound, "no course %q", ctxID)
		return
	}
	q := r.URL.Query()
	m := Message{Sub: q.Get("user"), Context: ctxID, Target: "iframe", Data: q.Get("data")}
	for k, v := range q {
		if k, ok := strings.CutPrefix(k, "custom_"); ok {
			if m.Custom == nil {
				m.Custom = map[string]string{}
			}
			m.Custom[k] = v[0]
		}
	}
	window := false
	switch q.Get("open") {
	case "window":
		m.Target, window = "window", true
	case "deeplink":
		m.Type = DeepLinking
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = courseTemplate.Execute(w, map[string]any{"Title": course.Title, "URL": p.LoginURL(m), "Window": window})
}

var resultTemplate = template.Must(template.New("result").Parse(`<!doctype html>
<html lang="es"><head><meta charset="utf-8"><title>Contenido recibido</title></head>
<body><h1>Contenido recibido</h1><ul>{{range .}}<li class="item">{{index . "title"}}</li>{{end}}</ul></body></html>`))
