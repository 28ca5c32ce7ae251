package lti

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/store"
)

// Service is the tool side of LTI 1.3.
type Service struct {
	store  store.Store
	groups *groups.Service
	keys   *Keys
	remote *remoteKeys
	tokens *tokenCache
	client *http.Client
	log    *slog.Logger
	now    func() time.Time

	originsMu     sync.Mutex
	origins       []string
	originsLoaded time.Time

	wake chan struct{} // tells the score worker a job was queued

	tutorsRequireMicrosoft bool
}

// Options configure a Service; the zero value is fine.
type Options struct {
	// HTTPClient calls the platforms (keys, tokens, rosters, grades); nil
	// means one with a 20-second timeout.
	HTTPClient *http.Client
	Log        *slog.Logger
	Now        func() time.Time
	// TutorsRequireMicrosoft (TUTORS_REQUIRE_MICROSOFT) makes Microsoft the
	// only way into a tutor's account: launches never open one.
	TutorsRequireMicrosoft bool
}

// NewService wires the LTI service.
func NewService(s store.Store, g *groups.Service, o Options) *Service {
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{Timeout: 20 * time.Second}
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return &Service{
		store: s, groups: g, client: o.HTTPClient, log: o.Log, now: o.Now,
		keys:   newKeys(s, o.Now),
		remote: newRemoteKeys(o.HTTPClient, o.Now),
		tokens: &tokenCache{m: map[string]cachedToken{}},
		wake:   make(chan struct{}, 1),

		tutorsRequireMicrosoft: o.TutorsRequireMicrosoft,
	}
}

// Keys are the tool's signing keys.
func (s *Service) Keys() *Keys { return s.keys }

// Registration is what an administrator gives to register a platform.
type Registration struct {
	Issuer, ClientID           string
	AuthURL, TokenURL, JWKSURL string
	DeploymentIDs              []string
	FrameOrigins               []string
	AllowTutors                bool
}

const maxIDLength = 255

// AddPlatform registers a platform. Its URLs must be https (http only on
// loopback); an issuer and client id already registered are refused.
func (s *Service) AddPlatform(ctx context.Context, r Registration) (domain.LTIPlatform, error) {
	r.Issuer, r.ClientID = strings.TrimSpace(r.Issuer), strings.TrimSpace(r.ClientID)
	var problems []string
	for _, u := range []struct{ flag, v string }{{"--issuer", r.Issuer}, {"--auth-url", r.AuthURL}, {"--token-url", r.TokenURL}, {"--jwks-url", r.JWKSURL}} {
		if u.v == "" {
			problems = append(problems, u.flag+" is required")
		} else if err := CheckPlatformURL(u.v); err != nil {
			problems = append(problems, u.flag+": "+err.Error())
		}
	}
	if r.ClientID == "" || len(r.ClientID) > maxIDLength {
		problems = append(problems, "--client-id is required (at most 255 characters)")
	}
	var deployments []string
	for _, d := range r.DeploymentIDs {
		if d = strings.TrimSpace(d); d != "" && !slices.Contains(deployments, d) {
			deployments = append(deployments, d)
		}
	}
	if len(deployments) == 0 {
		problems = append(problems, "at least one --deployment-id is required")
	}
	for _, d := range deployments {
		if len(d) > maxIDLength {
			problems = append(problems, fmt.Sprintf("--deployment-id %q is longer than 255 characters", d))
		}
	}
	var origins []string
	for _, o := range r.FrameOrigins {
		if err := CheckPlatformURL(o); err != nil {
			problems = append(problems, "--frame-origin: "+err.Error())
			continue
		}
		if o = Origin(o); !slices.Contains(origins, o) {
			origins = append(origins, o)
		}
	}
	if len(problems) > 0 {
		return domain.LTIPlatform{}, errors.New(strings.Join(problems, "; "))
	}
	p := domain.LTIPlatform{
		ID: domain.LTIPlatformID(r.Issuer, r.ClientID), Issuer: r.Issuer, ClientID: r.ClientID, DeploymentIDs: deployments,
		AuthURL: r.AuthURL, TokenURL: r.TokenURL, JWKSURL: r.JWKSURL, FrameOrigins: origins, AllowTutors: r.AllowTutors,
		CreatedAt: s.now().UTC(),
	}
	if err := s.store.CreateLTIPlatform(ctx, p); err != nil {
		if errors.Is(err, domain.ErrConflict) {
			return p, fmt.Errorf("the platform %s with client id %s is registered already; remove it first to change it", r.Issuer, r.ClientID)
		}
		return p, err
	}
	s.forgetOrigins()
	return p, nil
}

// Platforms lists the registrations.
func (s *Service) Platforms(ctx context.Context) ([]domain.LTIPlatform, error) {
	return s.store.ListLTIPlatforms(ctx)
}

// RemovePlatform removes a registration: its launches are refused from
// then on. Courses and group links made under it stay, and come back if
// it is registered again.
func (s *Service) RemovePlatform(ctx context.Context, issuer, clientID string) error {
	err := s.store.DeleteLTIPlatform(ctx, domain.LTIPlatformID(strings.TrimSpace(issuer), strings.TrimSpace(clientID)))
	if errors.Is(err, domain.ErrNotFound) {
		return fmt.Errorf("no platform %s with client id %s is registered", issuer, clientID)
	}
	s.forgetOrigins()
	return err
}

// originsCacheFor bounds how long a registration made from the terminal
// takes to reach a running server's frame-ancestors.
const originsCacheFor = 10 * time.Second

// FrameAncestors are the origins allowed to frame the tool's launch pages:
// those of every registered platform's URLs and its extra frame origins.
func (s *Service) FrameAncestors(ctx context.Context) ([]string, error) {
	s.originsMu.Lock()
	defer s.originsMu.Unlock()
	if !s.originsLoaded.IsZero() && s.now().Sub(s.originsLoaded) < originsCacheFor {
		return s.origins, nil
	}
	list, err := s.store.ListLTIPlatforms(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range list {
		for _, u := range append([]string{p.Issuer, p.AuthURL, p.TokenURL}, p.FrameOrigins...) {
			if o := Origin(u); o != "" && !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	s.origins, s.originsLoaded = out, s.now()
	return out, nil
}

func (s *Service) forgetOrigins() {
	s.originsMu.Lock()
	s.originsLoaded = time.Time{}
	s.originsMu.Unlock()
}

// Sweep deletes expired single-use records; the server runs it
// periodically.
func (s *Service) Sweep(ctx context.Context) (int64, error) {
	return s.store.DeleteExpiredLTIOnce(ctx, s.now().UTC())
}

// randomToken is 32 random bytes, base64url.
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}

// hashKey is what single-use records are stored under: a leaked database
// must not hand out live states or codes.
func hashKey(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:])
}

// loginsPerAddress bounds login initiations per client address in
// loginWindow: a classroom behind one address launches a few dozen.
const (
	loginsPerAddress = 600
	loginWindow      = 10 * time.Minute
)

// allowLogin counts a login initiation from addr in the store's counters
// (store.Counters), so the limit holds across the server's instances.
func (s *Service) allowLogin(ctx context.Context, addr string) (bool, error) {
	now := s.now().UTC()
	c, err := store.CountInWindow(ctx, s.store, "limit:lti_login:"+addr, now, loginWindow)
	return c.Count <= loginsPerAddress, err
}
