package lti

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/utpl/simulador/backend/internal/domain"
)

// The tool's calls to a platform's services: an access token from the
// platform's token endpoint (OAuth 2 client credentials with a JWT client
// assertion, RFC 7523), then the Names and Role Provisioning Services and
// the Assignment and Grade Services with that token.

// PlatformError is a service call the platform refused or failed.
type PlatformError struct {
	Op     string // what the tool was doing, in English
	Status int    // 0 when the platform could not be reached
	Detail string // the platform's answer (cut), or the transport error
}

func (e *PlatformError) Error() string {
	if e.Status == 0 {
		return fmt.Sprintf("%s: %s", e.Op, e.Detail)
	}
	return fmt.Sprintf("%s: HTTP %d: %s", e.Op, e.Status, e.Detail)
}

// Spanish says what went wrong for a tutor.
func (e *PlatformError) Spanish() string {
	if e.Status == 0 {
		return "No se pudo contactar a la plataforma del curso. Intente de nuevo en unos minutos."
	}
	switch e.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Sprintf("La plataforma del curso no autorizó la operación (HTTP %d). Revise que la herramienta tenga habilitados los servicios de nombres y roles y de calificaciones.", e.Status)
	case http.StatusNotFound:
		return "La plataforma del curso no encontró el recurso (HTTP 404): puede que la columna o el curso ya no existan."
	}
	return fmt.Sprintf("La plataforma del curso respondió con un error (HTTP %d).", e.Status)
}

// permanent reports whether retrying cannot help (the platform refused
// the request itself).
func (e *PlatformError) permanent() bool {
	return e.Status >= 400 && e.Status < 500 && e.Status != http.StatusTooManyRequests && e.Status != http.StatusRequestTimeout
}

// Limits of what the tool reads from a platform.
const (
	maxResponseBytes = 8 << 20
	maxPages         = 200
	maxMembers       = 20000
	detailLength     = 300
)

type cachedToken struct {
	token   string
	expires time.Time
}

type tokenCache struct {
	mu sync.Mutex
	m  map[string]cachedToken
}

type tokenResponse struct {
	AccessToken string `json:"access_token"`
	TokenType   string `json:"token_type"`
	ExpiresIn   int    `json:"expires_in"`
}

// accessToken returns a token for scopes, from the cache while it has
// more than a minute left.
func (s *Service) accessToken(ctx context.Context, p domain.LTIPlatform, scopes ...string) (string, error) {
	scopes = slices.Sorted(slices.Values(scopes))
	key := p.ID + " " + strings.Join(scopes, " ")
	now := s.now()
	s.tokens.mu.Lock()
	if t, ok := s.tokens.m[key]; ok && now.Add(time.Minute).Before(t.expires) {
		s.tokens.mu.Unlock()
		return t.token, nil
	}
	s.tokens.mu.Unlock()

	assertion, err := s.keys.Sign(ctx, jwt.Claims{
		Issuer: p.ClientID, Subject: p.ClientID, Audience: jwt.Audience{p.TokenURL}, ID: randomToken(),
		IssuedAt: jwt.NewNumericDate(now), Expiry: jwt.NewNumericDate(now.Add(tokenLifetime)),
	})
	if err != nil {
		return "", err
	}
	form := url.Values{
		"grant_type":            {"client_credentials"},
		"client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion":      {assertion},
		"scope":                 {strings.Join(scopes, " ")},
	}
	if err := CheckPlatformURL(p.TokenURL); err != nil {
		return "", &PlatformError{Op: "request an access token", Detail: err.Error()}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	var tr tokenResponse
	if _, err := s.do(req, "request an access token", &tr); err != nil {
		return "", err
	}
	if tr.AccessToken == "" || !strings.EqualFold(tr.TokenType, "bearer") {
		return "", &PlatformError{Op: "request an access token", Status: http.StatusOK, Detail: "no bearer access_token in the answer"}
	}
	life := time.Duration(tr.ExpiresIn) * time.Second
	if life <= 0 {
		life = 5 * time.Minute
	}
	s.tokens.mu.Lock()
	s.tokens.m[key] = cachedToken{token: tr.AccessToken, expires: now.Add(life)}
	s.tokens.mu.Unlock()
	return tr.AccessToken, nil
}

func (s *Service) forgetToken(p domain.LTIPlatform, scopes ...string) {
	key := p.ID + " " + strings.Join(slices.Sorted(slices.Values(scopes)), " ")
	s.tokens.mu.Lock()
	delete(s.tokens.m, key)
	s.tokens.mu.Unlock()
}

// do sends req and decodes a JSON answer into out (when not nil).
func (s *Service) do(req *http.Request, op string, out any) (http.Header, error) {
	res, err := s.client.Do(req)
	if err != nil {
		return nil, &PlatformError{Op: op, Detail: err.Error()}
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxResponseBytes+1))
	if err != nil {
		return nil, &PlatformError{Op: op, Detail: "reading the answer: " + err.Error()}
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, &PlatformError{Op: op, Status: res.StatusCode, Detail: cut(string(body))}
	}
	if len(body) > maxResponseBytes {
		return nil, &PlatformError{Op: op, Status: res.StatusCode, Detail: "answer larger than 8 MB"}
	}
	if out != nil && len(bytes.TrimSpace(body)) > 0 {
		if err := json.Unmarshal(body, out); err != nil {
			return nil, &PlatformError{Op: op, Status: res.StatusCode, Detail: "unreadable JSON: " + err.Error()}
		}
	}
	return res.Header, nil
}

func cut(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > detailLength {
		return s[:detailLength] + "…"
	}
	return s
}

// call sends one service request with a token for scopes, asking again
// once with a fresh token when the platform says the token is not valid.
func (s *Service) call(ctx context.Context, p domain.LTIPlatform, scopes []string, method, rawURL, accept, contentType string, body, out any, op string) (http.Header, error) {
	if err := CheckPlatformURL(rawURL); err != nil {
		return nil, &PlatformError{Op: op, Detail: err.Error()}
	}
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return nil, err
		}
	}
	for try := 0; ; try++ {
		token, err := s.accessToken(ctx, p, scopes...)
		if err != nil {
			return nil, err
		}
		req, err := http.NewRequestWithContext(ctx, method, rawURL, bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Accept", accept)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		h, err := s.do(req, op, out)
		var pe *PlatformError
		if try == 0 && errors.As(err, &pe) && pe.Status == http.StatusUnauthorized {
			s.forgetToken(p, scopes...)
			continue
		}
		return h, err
	}
}

// nextLink is the URL of a Link header's rel="next", resolved against base.
func nextLink(h http.Header, base string) string {
	for _, v := range h.Values("Link") {
		for _, part := range splitLinks(v) {
			target, params, ok := strings.Cut(part, ";")
			target = strings.TrimSpace(target)
			if !ok || !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
				continue
			}
			for _, p := range strings.Split(params, ";") {
				k, val, _ := strings.Cut(strings.TrimSpace(p), "=")
				if strings.EqualFold(k, "rel") && slices.Contains(strings.Fields(strings.ToLower(strings.Trim(val, `"`))), "next") {
					u, err := url.Parse(base)
					if err != nil {
						return ""
					}
					ref, err := url.Parse(target[1 : len(target)-1])
					if err != nil {
						return ""
					}
					return u.ResolveReference(ref).String()
				}
			}
		}
	}
	return ""
}

// splitLinks splits a Link header at the commas between links (not the
// ones inside <…>).
func splitLinks(v string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range v {
		switch r {
		case '<':
			depth++
		case '>':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, v[start:i])
				start = i + 1
			}
		}
	}
	return append(out, v[start:])
}

// Member is one person of a course's roster (NRPS).
type Member struct {
	Status     string   `json:"status"`
	Name       string   `json:"name"`
	GivenName  string   `json:"given_name"`
	FamilyName string   `json:"family_name"`
	Email      string   `json:"email"`
	UserID     string   `json:"user_id"`
	Roles      []string `json:"roles"`
}

// Learner reports whether the member is an active learner of the course.
func (m Member) Learner() bool {
	if m.Status != "" && !strings.EqualFold(m.Status, "Active") {
		return false
	}
	role, _, err := mapRole(m.Roles, false)
	return err == nil && role == domain.RoleStudent
}

type membershipContainer struct {
	Members []Member `json:"members"`
}

// members reads a course's whole roster, following rel="next" pages.
func (s *Service) members(ctx context.Context, p domain.LTIPlatform, membershipsURL string) ([]Member, error) {
	var all []Member
	next := membershipsURL
	for page := 0; next != ""; page++ {
		if page == maxPages {
			return nil, &PlatformError{Op: "read the course roster", Status: http.StatusOK, Detail: fmt.Sprintf("more than %d pages", maxPages)}
		}
		var c membershipContainer
		h, err := s.call(ctx, p, []string{ScopeMemberships}, http.MethodGet, next, mediaMembership, "", nil, &c, "read the course roster")
		if err != nil {
			return nil, err
		}
		all = append(all, c.Members...)
		if len(all) > maxMembers {
			return nil, &PlatformError{Op: "read the course roster", Status: http.StatusOK, Detail: fmt.Sprintf("more than %d members", maxMembers)}
		}
		next = nextLink(h, next)
	}
	return all, nil
}

// LineItem is a gradebook column (AGS).
type LineItem struct {
	ID           string  `json:"id,omitempty"`
	Label        string  `json:"label"`
	ScoreMaximum float64 `json:"scoreMaximum"`
	ResourceID   string  `json:"resourceId,omitempty"`
	Tag          string  `json:"tag,omitempty"`
}

// errNoColumnsScope is a course whose launches offered neither scope that
// lets the tool read its columns.
var errNoColumnsScope = domain.Invalid(CodeNoGrades,
	"La plataforma no permite que el simulador lea las columnas de este curso: la herramienta no tiene el permiso de columnas "+
		"(lineitem o lineitem.readonly) del servicio de calificaciones. Pida al administrador de la plataforma que lo habilite.")

// columnsScope is the scope to read a course's columns with, among those
// its launches offered (a platform may refuse a token for any other): the
// read-only one when offered, else the read-write one, which allows reading
// too. When the launch listed no scopes, the read-only one.
func columnsScope(offered []string) (string, error) {
	switch {
	case len(offered) == 0 || slices.Contains(offered, ScopeLineItemReadonly):
		return ScopeLineItemReadonly, nil
	case slices.Contains(offered, ScopeLineItem):
		return ScopeLineItem, nil
	}
	return "", errNoColumnsScope
}

// lineItems reads a course's columns that the tool may see, following
// rel="next" pages, with a scope the course's launches offered.
func (s *Service) lineItems(ctx context.Context, p domain.LTIPlatform, c domain.LTICourse) ([]LineItem, error) {
	scope, err := columnsScope(c.ServiceScopes)
	if err != nil {
		return nil, err
	}
	lineItemsURL := c.LineItemsURL
	var all []LineItem
	next := lineItemsURL
	for page := 0; next != ""; page++ {
		if page == maxPages {
			return nil, &PlatformError{Op: "list the course's columns", Status: http.StatusOK, Detail: fmt.Sprintf("more than %d pages", maxPages)}
		}
		var items []LineItem
		h, err := s.call(ctx, p, []string{scope}, http.MethodGet, next, mediaLineItems, "", nil, &items, "list the course's columns")
		if err != nil {
			return nil, err
		}
		all = append(all, items...)
		next = nextLink(h, next)
	}
	return all, nil
}

func (s *Service) createLineItem(ctx context.Context, p domain.LTIPlatform, lineItemsURL string, item LineItem) (LineItem, error) {
	var created LineItem
	_, err := s.call(ctx, p, []string{ScopeLineItem}, http.MethodPost, lineItemsURL, mediaLineItem, mediaLineItem, item, &created, "create a column")
	if err == nil && CheckPlatformURL(created.ID) != nil {
		err = &PlatformError{Op: "create a column", Status: http.StatusCreated, Detail: fmt.Sprintf("the new column's id %q is not a usable URL", created.ID)}
	}
	return created, err
}

// Score is a result the tool publishes for one learner (AGS).
type Score struct {
	UserID           string  `json:"userId"`
	ScoreGiven       float64 `json:"scoreGiven"`
	ScoreMaximum     float64 `json:"scoreMaximum"`
	Comment          string  `json:"comment,omitempty"`
	Timestamp        string  `json:"timestamp"`
	ActivityProgress string  `json:"activityProgress"`
	GradingProgress  string  `json:"gradingProgress"`
}

// scoresURL is a line item's scores endpoint: its URL with /scores
// appended to the path (before any query).
func scoresURL(lineItem string) (string, error) {
	u, err := url.Parse(lineItem)
	if err != nil {
		return "", err
	}
	u.Path = strings.TrimSuffix(u.Path, "/") + "/scores"
	if u.RawPath != "" {
		u.RawPath = strings.TrimSuffix(u.RawPath, "/") + "/scores"
	}
	return u.String(), nil
}

func (s *Service) postScore(ctx context.Context, p domain.LTIPlatform, lineItem string, sc Score) error {
	target, err := scoresURL(lineItem)
	if err != nil {
		return &PlatformError{Op: "publish a score", Detail: err.Error()}
	}
	_, err = s.call(ctx, p, []string{ScopeScore}, http.MethodPost, target, "application/json", mediaScore, sc, nil, "publish a score")
	return err
}

// scoreTimestamp is AGS's timestamp: ISO 8601 with sub-second precision.
func scoreTimestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }
