// Package ltitest is a fake LTI 1.3 platform (an LMS such as Canvas) for
// tests. It speaks the real protocol with real signed tokens:
//
//   - GET /jwks: its public keys (RotateKey adds a new one);
//   - GET|POST /auth: the OIDC authorization endpoint; it checks the
//     tool's authentication request and answers with a page that posts
//     id_token and state to the tool's redirect URI (the launch);
//   - POST /token: the OAuth 2 token endpoint; it verifies the tool's JWT
//     client assertion against the tool's published keys (RFC 7523) and
//     grants the scopes asked for;
//   - GET /nrps/{context}: Names and Role Provisioning Services, paged
//     with Link: rel="next";
//   - GET|POST /ags/{context}/lineitems and POST …/lineitems/{n}/scores:
//     Assignment and Grade Services; it records the scores it receives;
//   - POST /deep-link-return: where the tool posts its deep linking
//     response; it verifies the tool's JWT and records the content items;
//   - GET /course/{context}?user=SUB&open=iframe|window|deeplink: a course
//     page that embeds the tool in an iframe, or opens it in a new tab.
//
// It is deliberately written apart from package lti (its own claim names
// and checks), so that a mistake in the tool is not mirrored here. It is
// for tests only: it authenticates nobody.
package ltitest

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// Defaults when Options leave them empty.
const (
	DefaultClientID     = "10000000000042"
	DefaultDeploymentID = "7:ltitest-deployment"
)

// Options configure a Platform.
type Options struct {
	// Addr is the listen address; default 127.0.0.1:0.
	Addr string
	// Host names the platform in its URLs (its issuer); default the
	// listener's IP. "localhost" makes the course page cross-site to a tool
	// on 127.0.0.1, as Canvas is to a tool in production.
	Host         string
	ClientID     string
	DeploymentID string
	// ToolURL is the tool's base URL (SetTool changes it).
	ToolURL string
	// MemberPageSize is the number of members per NRPS page; default 50.
	MemberPageSize int
	Now            func() time.Time
}

// User is a person of the platform.
type User struct {
	Sub        string   `json:"sub"`
	Email      string   `json:"email,omitempty"`
	Name       string   `json:"name,omitempty"`
	GivenName  string   `json:"givenName,omitempty"`
	FamilyName string   `json:"familyName,omitempty"`
	Roles      []string `json:"roles"`
	// Inactive members are listed by NRPS with status Inactive.
	Inactive bool `json:"inactive,omitempty"`
}

// Course is a context of the platform with its members (their subs).
type Course struct {
	ID      string            `json:"id"`
	Title   string            `json:"title"`
	Label   string            `json:"label"`
	Members []string          `json:"members"`
	Custom  map[string]string `json:"custom,omitempty"`
}

// Roles as platforms send them.
const (
	RoleLearner    = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
	RoleInstructor = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
	RoleTA         = "http://purl.imsglobal.org/vocab/lis/v2/membership/Instructor#TeachingAssistant"
	RoleStudentIns = "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Student"
)

// Scopes the platform grants.
const (
	ScopeNRPS     = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
	ScopeLineItem = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
	ScopeReadonly = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem.readonly"
	ScopeResult   = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
	ScopeScore    = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
)

var grantable = []string{ScopeNRPS, ScopeLineItem, ScopeReadonly, ScopeResult, ScopeScore}

// Platform is a running fake platform. Close it when done.
type Platform struct {
	opts Options
	base string
	srv  *http.Server
	ln   net.Listener

	mu        sync.Mutex
	tool      string
	key       *rsa.PrivateKey
	kid       string
	published []jose.JSONWebKey
	foreign   *rsa.PrivateKey // never published
	users     map[string]User
	courses   map[string]*Course
	tokens    map[string]grant
	jtis      map[string]bool
	lineItems map[string][]LineItem // by context
	scores    []ScoreRecord
	deepLinks []DeepLinkResult
	next      *Message // faults for the next browser launch
	// agsScopes are the scopes the launches' AGS claim offers; the token
	// endpoint grants no other AGS scope (invalid_scope), as an
	// authorization server may.
	agsScopes []string
	// lastScore is the timestamp of the last score taken per line item
	// and user: a score must be later (AGS; Canvas answers 400).
	lastScore map[string]time.Time
	requests  []string // authentication requests and token grants seen (for tests)
}

type grant struct {
	scopes  []string
	expires time.Time
}

// LineItem is a gradebook column.
type LineItem struct {
	ID           string  `json:"id"`
	Label        string  `json:"label"`
	ScoreMaximum float64 `json:"scoreMaximum"`
	ResourceID   string  `json:"resourceId,omitempty"`
	Tag          string  `json:"tag,omitempty"`
}

// ScoreRecord is a score the tool published.
type ScoreRecord struct {
	Context  string         `json:"context"`
	LineItem string         `json:"lineItem"`
	Score    map[string]any `json:"score"`
}

// DeepLinkResult is a deep linking response the tool posted.
type DeepLinkResult struct {
	Claims map[string]any   `json:"claims"`
	Items  []map[string]any `json:"items"`
	Data   string           `json:"data"`
}

// Start runs a platform.
func Start(o Options) (*Platform, error) {
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.ClientID == "" {
		o.ClientID = DefaultClientID
	}
	if o.DeploymentID == "" {
		o.DeploymentID = DefaultDeploymentID
	}
	if o.MemberPageSize <= 0 {
		o.MemberPageSize = 50
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		return nil, err
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if o.Host != "" {
		host = o.Host
	}
	p := &Platform{opts: o, ln: ln, base: "http://" + net.JoinHostPort(host, port), tool: strings.TrimRight(o.ToolURL, "/"),
		users: map[string]User{}, courses: map[string]*Course{}, tokens: map[string]grant{}, jtis: map[string]bool{},
		lineItems: map[string][]LineItem{}, lastScore: map[string]time.Time{},
		agsScopes: []string{ScopeLineItem, ScopeReadonly, ScopeResult, ScopeScore}}
	if err := p.RotateKey(); err != nil {
		ln.Close()
		return nil, err
	}
	if p.foreign, err = rsa.GenerateKey(rand.Reader, 2048); err != nil {
		ln.Close()
		return nil, err
	}
	p.srv = &http.Server{Handler: p.routes(), ReadHeaderTimeout: 10 * time.Second}
	go p.srv.Serve(ln)
	return p, nil
}

// Close stops the platform.
func (p *Platform) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return p.srv.Shutdown(ctx)
}

// Info is what a tool's administrator registers.
type Info struct {
	URL          string `json:"url"`
	Issuer       string `json:"issuer"`
	ClientID     string `json:"clientId"`
	DeploymentID string `json:"deploymentId"`
	AuthURL      string `json:"authUrl"`
	TokenURL     string `json:"tokenUrl"`
	JWKSURL      string `json:"jwksUrl"`
}

// Info returns the platform's registration values.
func (p *Platform) Info() Info {
	return Info{URL: p.base, Issuer: p.base, ClientID: p.opts.ClientID, DeploymentID: p.opts.DeploymentID,
		AuthURL: p.base + "/auth", TokenURL: p.base + "/token", JWKSURL: p.base + "/jwks"}
}

// OfferScopes sets the AGS scopes later launches offer (the claim's
// "scope"); the token endpoint then grants only these AGS scopes.
func (p *Platform) OfferScopes(scopes ...string) {
	p.mu.Lock()
	p.agsScopes = append([]string(nil), scopes...)
	p.mu.Unlock()
}

// SetTool sets the tool's base URL.
func (p *Platform) SetTool(toolURL string) {
	p.mu.Lock()
	p.tool = strings.TrimRight(toolURL, "/")
	p.mu.Unlock()
}

func (p *Platform) toolURL() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.tool
}

// RotateKey makes a new signing key; the old ones stay published.
func (p *Platform) RotateKey() error {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return err
	}
	jwk := jose.JSONWebKey{Key: &key.PublicKey, Algorithm: "RS256", Use: "sig"}
	sum, err := jwk.Thumbprint(crypto.SHA256)
	if err != nil {
		return err
	}
	jwk.KeyID = base64.RawURLEncoding.EncodeToString(sum)
	p.mu.Lock()
	p.key, p.kid = key, jwk.KeyID
	p.published = append(p.published, jwk)
	p.mu.Unlock()
	return nil
}

// AddUser adds (or replaces) a person.
func (p *Platform) AddUser(u User) {
	p.mu.Lock()
	p.users[u.Sub] = u
	p.mu.Unlock()
}

// AddCourse adds (or replaces) a course.
func (p *Platform) AddCourse(c Course) {
	p.mu.Lock()
	cc := c
	p.courses[c.ID] = &cc
	p.mu.Unlock()
}

// Enroll adds a member to a course.
func (p *Platform) Enroll(courseID, sub string) {
	p.mu.Lock()
	if c := p.courses[courseID]; c != nil {
		c.Members = append(c.Members, sub)
	}
	p.mu.Unlock()
}

// Unenroll removes a member from a course.
func (p *Platform) Unenroll(courseID, sub string) {
	p.mu.Lock()
	if c := p.courses[courseID]; c != nil {
		var keep []string
		for _, m := range c.Members {
			if m != sub {
				keep = append(keep, m)
			}
		}
		c.Members = keep
	}
	p.mu.Unlock()
}

// Scores returns the scores received so far.
func (p *Platform) Scores() []ScoreRecord {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]ScoreRecord(nil), p.scores...)
}

// LineItems returns a course's columns.
func (p *Platform) LineItems(courseID string) []LineItem {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]LineItem(nil), p.lineItems[courseID]...)
}

// AddLineItem adds a column made in the platform (not by the tool).
func (p *Platform) AddLineItem(courseID, label string, max float64) LineItem {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.addLineItem(courseID, LineItem{Label: label, ScoreMaximum: max})
}

func (p *Platform) addLineItem(courseID string, li LineItem) LineItem {
	li.ID = fmt.Sprintf("%s/ags/%s/lineitems/%d", p.base, url.PathEscape(courseID), len(p.lineItems[courseID])+1)
	p.lineItems[courseID] = append(p.lineItems[courseID], li)
	return li
}

// DeepLinks returns the deep linking responses received so far.
func (p *Platform) DeepLinks() []DeepLinkResult {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]DeepLinkResult(nil), p.deepLinks...)
}

// SetNext sets the faults of the next browser launch (a Message whose
// Set, Remove, UnknownKey and Alg apply).
func (p *Platform) SetNext(m *Message) {
	p.mu.Lock()
	p.next = m
	p.mu.Unlock()
}

// Requests lists the authentication requests and token grants seen.
func (p *Platform) Requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...)
}

func (p *Platform) note(s string) {
	p.mu.Lock()
	p.requests = append(p.requests, s)
	p.mu.Unlock()
}

func (p *Platform) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /jwks", p.jwks)
	mux.HandleFunc("/auth", p.authorize)
	mux.HandleFunc("POST /token", p.token)
	mux.HandleFunc("GET /nrps/{context}", p.memberships)
	mux.HandleFunc("GET /ags/{context}/lineitems", p.listLineItems)
	mux.HandleFunc("POST /ags/{context}/lineitems", p.createLineItem)
	mux.HandleFunc("POST /ags/{context}/lineitems/{n}/scores", p.score)
	mux.HandleFunc("POST /deep-link-return", p.deepLinkReturn)
	mux.HandleFunc("GET /course/{context}", p.coursePage)
	mux.Handle("/_control/", p.control())
	return mux
}

func (p *Platform) jwks(w http.ResponseWriter, _ *http.Request) {
	p.mu.Lock()
	set := jose.JSONWebKeySet{Keys: append([]jose.JSONWebKey(nil), p.published...)}
	p.mu.Unlock()
	writeJSON(w, http.StatusOK, "application/json", set)
}

func writeJSON(w http.ResponseWriter, status int, contentType string, v any) {
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, format string, args ...any) {
	http.Error(w, fmt.Sprintf(format, args...), status)
}

// randomString is 24 random bytes, base64url.
func randomString() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

var errNoTool = errors.New("ltitest: the tool's URL is not set (Options.ToolURL or SetTool)")
