package ltitest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// verifyToolJWT checks a JWT the tool signed, against the keys the tool
// publishes at /lti/jwks (fetched every time, as Canvas does), and
// returns its claims.
func (p *Platform) verifyToolJWT(raw string) (map[string]any, error) {
	tool := p.toolURL()
	if tool == "" {
		return nil, errNoTool
	}
	jws, err := jose.ParseSignedCompact(raw, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return nil, fmt.Errorf("unreadable JWT: %w", err)
	}
	res, err := http.Get(tool + "/lti/jwks")
	if err != nil {
		return nil, fmt.Errorf("fetch the tool's keys: %w", err)
	}
	defer res.Body.Close()
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(res.Body).Decode(&set); err != nil {
		return nil, fmt.Errorf("read the tool's keys: %w", err)
	}
	keys := set.Key(jws.Signatures[0].Header.KeyID)
	if len(keys) == 0 {
		return nil, fmt.Errorf("the tool publishes no key %q", jws.Signatures[0].Header.KeyID)
	}
	payload, err := jws.Verify(keys[0])
	if err != nil {
		return nil, fmt.Errorf("bad signature: %w", err)
	}
	var claims map[string]any
	if err := json.Unmarshal(payload, &claims); err != nil {
		return nil, err
	}
	now := p.opts.Now()
	exp, _ := claims["exp"].(float64)
	iat, _ := claims["iat"].(float64)
	switch {
	case exp == 0 || now.After(time.Unix(int64(exp), 0)):
		return nil, errors.New("expired or no exp")
	case iat == 0 || time.Unix(int64(iat), 0).After(now.Add(time.Minute)):
		return nil, errors.New("iat missing or in the future")
	}
	return claims, nil
}

func audience(claims map[string]any) []string {
	switch a := claims["aud"].(type) {
	case string:
		return []string{a}
	case []any:
		var out []string
		for _, v := range a {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// token is the OAuth 2 token endpoint: client credentials with a JWT
// client assertion signed by the tool.
func (p *Platform) token(w http.ResponseWriter, r *http.Request) {
	oauthError := func(status int, code, desc string) {
		writeJSON(w, status, "application/json", map[string]string{"error": code, "error_description": desc})
	}
	if err := r.ParseForm(); err != nil {
		oauthError(http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	f := r.PostForm
	if f.Get("grant_type") != "client_credentials" {
		oauthError(http.StatusBadRequest, "unsupported_grant_type", "grant_type must be client_credentials")
		return
	}
	if f.Get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
		oauthError(http.StatusBadRequest, "invalid_client", "client_assertion_type must be jwt-bearer")
		return
	}
	claims, err := p.verifyToolJWT(f.Get("client_assertion"))
	if err != nil {
		oauthError(http.StatusUnauthorized, "invalid_client", err.Error())
		return
	}
	jti, _ := claims["jti"].(string)
	switch {
	case claims["iss"] != p.opts.ClientID || claims["sub"] != p.opts.ClientID:
		oauthError(http.StatusUnauthorized, "invalid_client", "iss and sub must be the client id")
		return
	case !slices.Contains(audience(claims), p.base+"/token"):
		oauthError(http.StatusUnauthorized, "invalid_client", "aud must be the token endpoint")
		return
	case jti == "":
		oauthError(http.StatusUnauthorized, "invalid_client", "jti is required")
		return
	}
	scopes := strings.Fields(f.Get("scope"))
	p.mu.Lock()
	offered := append([]string(nil), p.agsScopes...)
	p.mu.Unlock()
	for _, s := range scopes {
		if !slices.Contains(grantable, s) || s != ScopeNRPS && !slices.Contains(offered, s) {
			oauthError(http.StatusBadRequest, "invalid_scope", "scope "+s+" is not granted")
			return
		}
	}
	if len(scopes) == 0 {
		oauthError(http.StatusBadRequest, "invalid_scope", "no scope")
		return
	}
	p.mu.Lock()
	if p.jtis[jti] {
		p.mu.Unlock()
		oauthError(http.StatusUnauthorized, "invalid_client", "jti already used")
		return
	}
	p.jtis[jti] = true
	tok := randomString()
	p.tokens[tok] = grant{scopes: scopes, expires: p.opts.Now().Add(time.Hour)}
	p.mu.Unlock()
	p.note("token " + strings.Join(scopes, " "))
	writeJSON(w, http.StatusOK, "application/json", map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": 3600,
		"scope": strings.Join(scopes, " ")})
}

// authorized checks a bearer token for one of scopes.
func (p *Platform) authorized(w http.ResponseWriter, r *http.Request, scopes ...string) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	p.mu.Lock()
	g, found := p.tokens[tok]
	p.mu.Unlock()
	if !ok || !found || p.opts.Now().After(g.expires) {
		w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
		fail(w, http.StatusUnauthorized, "invalid or expired token")
		return false
	}
	for _, s := range scopes {
		if slices.Contains(g.scopes, s) {
			return true
		}
	}
	fail(w, http.StatusForbidden, "the token lacks the scope %v", scopes)
	return false
}

const (
	mediaMembers   = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json"
	mediaLineItems = "application/vnd.ims.lis.v2.lineitemcontainer+json"
	mediaLineItem  = "application/vnd.ims.lis.v2.lineitem+json"
	mediaScore     = "application/vnd.ims.lis.v1.score+json"
)

// memberships serves a course's roster, MemberPageSize members a page.
func (p *Platform) memberships(w http.ResponseWriter, r *http.Request) {
	if !p.authorized(w, r, ScopeNRPS) {
		return
	}
	if !strings.Contains(r.Header.Get("Accept"), mediaMembers) {
		fail(w, http.StatusNotAcceptable, "Accept must be %s", mediaMembers)
		return
	}
	ctxID := r.PathValue("context")
	p.mu.Lock()
	course := p.courses[ctxID]
	var members []map[string]any
	if course != nil {
		for _, sub := range course.Members {
			u := p.users[sub]
			status := "Active"
			if u.Inactive {
				status = "Inactive"
			}
			m := map[string]any{"status": status, "name": u.Name, "given_name": u.GivenName, "family_name": u.FamilyName,
				"user_id": u.Sub, "roles": u.Roles}
			if u.Email != "" {
				m["email"] = u.Email
			}
			members = append(members, m)
		}
	}
	p.mu.Unlock()
	if course == nil {
		fail(w, http.StatusNotFound, "no course %q", ctxID)
		return
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	size := p.opts.MemberPageSize
	start, end := min(page*size, len(members)), min((page+1)*size, len(members))
	if end < len(members) {
		next := p.base + "/nrps/" + url.PathEscape(ctxID) + "?page=" + strconv.Itoa(page+1)
		w.Header().Add("Link", fmt.Sprintf(`<%s>; rel="next"`, next))
	}
	p.note(fmt.Sprintf("nrps %s page %d", ctxID, page))
	writeJSON(w, http.StatusOK, mediaMembers, map[string]any{
		"id":      p.base + "/nrps/" + url.PathEscape(ctxID),
		"context": map[string]any{"id": course.ID, "label": course.Label, "title": course.Title},
		"members": nonNil(members[start:end]),
	})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func (p *Platform) listLineItems(w http.ResponseWriter, r *http.Request) {
	if !p.authorized(w, r, ScopeReadonly, ScopeLineItem) {
		return
	}
	writeJSON(w, http.StatusOK, mediaLineItems, nonNil(p.LineItems(r.PathValue("context"))))
}

func (p *Platform) createLineItem(w http.ResponseWriter, r *http.Request) {
	if !p.authorized(w, r, ScopeLineItem) {
		return
	}
	if r.Header.Get("Content-Type") != mediaLineItem {
		fail(w, http.StatusUnsupportedMediaType, "Content-Type must be %s", mediaLineItem)
		return
	}
	var li LineItem
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&li); err != nil || li.Label == "" || li.ScoreMaximum <= 0 {
		fail(w, http.StatusBadRequest, "a line item needs a label and a positive scoreMaximum")
		return
	}
	p.mu.Lock()
	li = p.addLineItem(r.PathValue("context"), li)
	p.mu.Unlock()
	writeJSON(w, http.StatusCreated, mediaLineItem, li)
}

// score records a score, checking it as a platform does.
func (p *Platform) score(w http.ResponseWriter, r *http.Request) {
	if !p.authorized(w, r, ScopeScore) {
		return
	}
	if r.Header.Get("Content-Type") != mediaScore {
		fail(w, http.StatusUnsupportedMediaType, "Content-Type must be %s", mediaScore)
		return
	}
	ctxID := r.PathValue("context")
	id := fmt.Sprintf("%s/ags/%s/lineitems/%s", p.base, url.PathEscape(ctxID), r.PathValue("n"))
	if !slices.ContainsFunc(p.LineItems(ctxID), func(li LineItem) bool { return li.ID == id }) {
		fail(w, http.StatusNotFound, "no line item %s", id)
		return
	}
	var s map[string]any
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&s); err != nil {
		fail(w, http.StatusBadRequest, "bad score: %v", err)
		return
	}
	user, _ := s["userId"].(string)
	p.mu.Lock()
	course := p.courses[ctxID]
	member := course != nil && slices.Contains(course.Members, user)
	p.mu.Unlock()
	switch {
	case !member:
		fail(w, http.StatusBadRequest, "userId %q is not a member of the course", user)
		return
	case s["activityProgress"] == nil || s["gradingProgress"] == nil || s["timestamp"] == nil:
		fail(w, http.StatusBadRequest, "activityProgress, gradingProgress and timestamp are required")
		return
	}
	at, err := time.Parse(time.RFC3339Nano, fmt.Sprint(s["timestamp"]))
	if err != nil {
		fail(w, http.StatusBadRequest, "timestamp is not ISO 8601: %v", err)
		return
	}
	// AGS: the timestamps of one (line item, user) strictly increase; Canvas
	// refuses a score whose timestamp is not after the result's last update.
	p.mu.Lock()
	last, seen := p.lastScore[id+"\x00"+user]
	if seen && !at.After(last) {
		p.mu.Unlock()
		fail(w, http.StatusBadRequest, "Provided timestamp of %s before last updated timestamp of %s", at.Format(time.RFC3339Nano), last.Format(time.RFC3339Nano))
		return
	}
	p.lastScore[id+"\x00"+user] = at
	p.scores = append(p.scores, ScoreRecord{Context: ctxID, LineItem: id, Score: s})
	p.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// deepLinkReturn receives the tool's deep linking response.
func (p *Platform) deepLinkReturn(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		fail(w, http.StatusBadRequest, "bad form")
		return
	}
	claims, err := p.verifyToolJWT(r.PostForm.Get("JWT"))
	if err != nil {
		fail(w, http.StatusBadRequest, "deep linking response refused: %v", err)
		return
	}
	switch {
	case claims["iss"] != p.opts.ClientID:
		err = errors.New("iss must be the client id")
	case !slices.Contains(audience(claims), p.base):
		err = errors.New("aud must be the platform's issuer")
	case claims[claimBase+"message_type"] != "LtiDeepLinkingResponse":
		err = errors.New("message_type must be LtiDeepLinkingResponse")
	case claims[claimBase+"version"] != "1.3.0":
		err = errors.New("version must be 1.3.0")
	case claims[claimBase+"deployment_id"] != p.opts.DeploymentID:
		err = errors.New("deployment_id is not this deployment")
	case claims["nonce"] == nil || claims["nonce"] == "":
		err = errors.New("nonce is required")
	}
	if err != nil {
		fail(w, http.StatusBadRequest, "deep linking response refused: %v", err)
		return
	}
	res := DeepLinkResult{Claims: claims}
	if list, ok := claims["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"].([]any); ok {
		for _, it := range list {
			if m, ok := it.(map[string]any); ok {
				res.Items = append(res.Items, m)
			}
		}
	}
	res.Data, _ = claims["https://purl.imsglobal.org/spec/lti-dl/claim/data"].(string)
	p.mu.Lock()
	p.deepLinks = append(p.deepLinks, res)
	p.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = resultTemplate.Execute(w, res.Items)
}

// control is the test-control API, for callers in another process:
//
//	POST /_control/users      [User…]      add people
//	POST /_control/courses    Course       add a course
//	POST /_control/enroll     {course,sub} enroll; DELETE unenrolls
//	POST /_control/next       Message      faults of the next browser launch
//	POST /_control/rotate-key              a new signing key
//	GET  /_control/scores                  the scores received
//	GET  /_control/line-items?course=ID    a course's columns
//	POST /_control/line-items {course,label,scoreMaximum}  a column made in the platform
//	GET  /_control/deep-links              the deep linking responses received
func (p *Platform) control() http.Handler {
	mux := http.NewServeMux()
	decode := func(w http.ResponseWriter, r *http.Request, v any) bool {
		if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(v); err != nil {
			fail(w, http.StatusBadRequest, "bad JSON: %v", err)
			return false
		}
		return true
	}
	mux.HandleFunc("POST /_control/users", func(w http.ResponseWriter, r *http.Request) {
		var users []User
		if decode(w, r, &users) {
			for _, u := range users {
				p.AddUser(u)
			}
			w.WriteHeader(http.StatusNoContent)
		}
	})
	mux.HandleFunc("POST /_control/courses", func(w http.ResponseWriter, r *http.Request) {
		var c Course
		if decode(w, r, &c) {
			p.AddCourse(c)
			w.WriteHeader(http.StatusNoContent)
		}
	})
	enroll := func(w http.ResponseWriter, r *http.Request) {
		var e struct{ Course, Sub string }
		if decode(w, r, &e) {
			if r.Method == http.MethodDelete {
				p.Unenroll(e.Course, e.Sub)
			} else {
				p.Enroll(e.Course, e.Sub)
			}
			w.WriteHeader(http.StatusNoContent)
		}
	}
	mux.HandleFunc("POST /_control/enroll", enroll)
	mux.HandleFunc("DELETE /_control/enroll", enroll)
	mux.HandleFunc("POST /_control/next", func(w http.ResponseWriter, r *http.Request) {
		var m Message
		if decode(w, r, &m) {
			p.SetNext(&m)
			w.WriteHeader(http.StatusNoContent)
		}
	})
	mux.HandleFunc("POST /_control/rotate-key", func(w http.ResponseWriter, _ *http.Request) {
		if err := p.RotateKey(); err != nil {
			fail(w, http.StatusInternalServerError, "%v", err)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	mux.HandleFunc("GET /_control/scores", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, "application/json", nonNil(p.Scores()))
	})
	mux.HandleFunc("GET /_control/line-items", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, "application/json", nonNil(p.LineItems(r.URL.Query().Get("course"))))
	})
	mux.HandleFunc("POST /_control/line-items", func(w http.ResponseWriter, r *http.Request) {
		var in struct {
			Course, Label string
			ScoreMaximum  float64
		}
		if decode(w, r, &in) {
			writeJSON(w, http.StatusCreated, "application/json", p.AddLineItem(in.Course, in.Label, in.ScoreMaximum))
		}
	})
	mux.HandleFunc("GET /_control/deep-links", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, "application/json", nonNil(p.DeepLinks()))
	})
	return mux
}
