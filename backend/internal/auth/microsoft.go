package auth

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
)

// MicrosoftClaims are the ID token claims the product uses.
type MicrosoftClaims struct {
	ObjectID          string `json:"oid"`
	TenantID          string `json:"tid"`
	Email             string `json:"email"`
	PreferredUsername string `json:"preferred_username"`
	UPN               string `json:"upn"`
	// EmailVerified is Entra's optional claim xms_edov ("email domain
	// owner verified"): the tenant verifies the email claim's domain.
	EmailVerified flexBool `json:"xms_edov"`
	Name          string   `json:"name"`
	GivenName     string   `json:"given_name"`
	FamilyName    string   `json:"family_name"`
	Nonce         string   `json:"nonce"`

	// VerifiedEmail is the address the tenant vouches for ("" when
	// none), and EmailSource the claim it came from; set by Verify.
	VerifiedEmail string `json:"-"`
	EmailSource   string `json:"-"`
	// EmailLinks says VerifiedEmail may link the account to an existing
	// profile (a user name); an email claim may only name a new one.
	EmailLinks bool `json:"-"`
}

// flexBool reads a claim sent as true or "true" (Entra's optional
// claims have been seen as either).
type flexBool bool

func (b *flexBool) UnmarshalJSON(data []byte) error {
	switch strings.Trim(strings.ToLower(string(data)), `"`) {
	case "true", "1":
		*b = true
	default:
		*b = false
	}
	return nil
}

// MicrosoftVerifier verifies ID tokens issued by the configured Entra ID
// tenant: signature against the tenant's published keys, issuer, audience,
// expiry, tenant and nonce.
type MicrosoftVerifier struct {
	cfg    config.Microsoft
	client *http.Client
	log    *slog.Logger

	// verifier caches, per process, the tenant's discovery document and
	// (inside go-oidc's key set) its signing keys. A stale copy is
	// harmless: a token signed with a key the cache does not know makes
	// go-oidc fetch the keys again, and the discovery document names
	// endpoints that do not change. Nothing here depends on another
	// instance.
	mu       sync.Mutex
	verifier *oidc.IDTokenVerifier
}

// NewMicrosoftVerifier returns nil when the sign-in is not configured. The
// issuer's discovery document is fetched lazily, so the server starts even
// when the identity provider is unreachable.
func NewMicrosoftVerifier(cfg config.Microsoft) (*MicrosoftVerifier, error) {
	if !cfg.Enabled() {
		return nil, nil
	}
	if !config.IsGUID(cfg.TenantID) {
		return nil, fmt.Errorf("MS_TENANT_ID=%q: expected the Directory (tenant) ID, a GUID", cfg.TenantID)
	}
	client := &http.Client{Timeout: 10 * time.Second}
	if cfg.CAFile != "" {
		pem, err := os.ReadFile(cfg.CAFile)
		if err != nil {
			return nil, fmt.Errorf("MS_CA_FILE: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("MS_CA_FILE: no certificate found in %s", cfg.CAFile)
		}
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
		client.Transport = tr
	}
	return &MicrosoftVerifier{cfg: cfg, client: client, log: slog.Default()}, nil
}

// SetLogger sets where the verifier reports that it cannot reach the
// identity provider (slog.Default() until set).
func (v *MicrosoftVerifier) SetLogger(l *slog.Logger) {
	if v != nil && l != nil {
		v.log = l
	}
}

// Issuer is the tenant's token issuer.
func (v *MicrosoftVerifier) Issuer() string { return v.cfg.Authority + "/v2.0" }

func (v *MicrosoftVerifier) idTokenVerifier(ctx context.Context) (*oidc.IDTokenVerifier, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.verifier != nil {
		return v.verifier, nil
	}
	discoverCtx, cancel := context.WithTimeout(oidc.ClientContext(ctx, v.client), 15*time.Second)
	defer cancel()
	p, err := oidc.NewProvider(discoverCtx, v.Issuer())
	if err != nil {
		return nil, fmt.Errorf("discover %s: %w", v.Issuer(), err)
	}
	// The provider's key set refreshes keys with its own background context
	// and the client captured here, so the request's context is not kept.
	v.verifier = p.Verifier(&oidc.Config{ClientID: v.cfg.ClientID})
	return v.verifier, nil
}

// Verify checks raw and returns its claims; the email is normalised.
func (v *MicrosoftVerifier) Verify(ctx context.Context, raw, nonce string) (MicrosoftClaims, error) {
	var c MicrosoftClaims
	if raw == "" || nonce == "" {
		return c, errors.New("missing token or nonce")
	}
	// A refused token is the client's problem (an info line at most); not
	// reaching the identity provider is ours: every sign-in fails until a
	// network, TLS or MS_AUTHORITY problem is fixed, so it is a warning.
	verifier, err := v.idTokenVerifier(ctx)
	if err != nil {
		if ctx.Err() == nil {
			v.log.Warn("Microsoft sign-in: cannot read the identity provider's discovery document", "issuer", v.Issuer(), "err", err)
		}
		return c, err
	}
	tok, err := verifier.Verify(ctx, raw)
	if err != nil {
		// go-oidc reports a failed key download only in its message
		// ("fetching keys ..."); TestMicrosoftVerifierWarnsWhenKeysCannotBeFetched
		// notices if that changes.
		if ctx.Err() == nil && strings.Contains(err.Error(), "fetching keys") {
			v.log.Warn("Microsoft sign-in: cannot fetch the identity provider's signing keys", "issuer", v.Issuer(), "err", err)
		}
		return c, err
	}
	if err := tok.Claims(&c); err != nil {
		return c, err
	}
	if subtle.ConstantTimeCompare([]byte(c.Nonce), []byte(nonce)) != 1 {
		return c, errors.New("nonce mismatch")
	}
	// The issuer already names the tenant; the tid claim must name it too.
	if !strings.EqualFold(c.TenantID, v.cfg.TenantID) {
		return c, fmt.Errorf("token from tenant %q", c.TenantID)
	}
	if c.ObjectID == "" {
		return c, errors.New("token without oid")
	}
	c.VerifiedEmail, c.EmailSource, c.EmailLinks = v.verifiedEmail(c)
	return c, nil
}

// verifiedEmail picks the address the tenant vouches for, and says
// whether it may link the account to a profile that already exists.
//
// The user name (preferred_username, or upn) comes first: it is unique in
// the tenant, it is what the person signs in with, and its domain must be
// one the tenant verified; it counts when that domain is one of
// MS_EMAIL_DOMAINS. A guest's user name (…#EXT#@…) never counts.
//
// Entra's email claim is the directory's mail attribute, which an
// administrator (or a guest's home tenant) may set to any address. Even
// with xms_edov true it only says the tenant owns the address's domain,
// not that this account owns the mailbox. So it never names an address in
// MS_EMAIL_DOMAINS (those come from the user name alone), and it may only
// name a new profile, never link an existing one (linkable false).
func (v *MicrosoftVerifier) verifiedEmail(c MicrosoftClaims) (email, source string, linkable bool) {
	for _, cand := range []struct{ value, claim string }{{c.PreferredUsername, "preferred_username"}, {c.UPN, "upn"}} {
		e := domain.NormalizeEmail(cand.value)
		if !domain.ValidEmail(e) || strings.Contains(e, "#ext#") {
			continue
		}
		if slices.Contains(v.cfg.EmailDomains, emailDomain(e)) {
			return e, cand.claim, true
		}
	}
	if e := domain.NormalizeEmail(c.Email); bool(c.EmailVerified) && domain.ValidEmail(e) && !slices.Contains(v.cfg.EmailDomains, emailDomain(e)) {
		return e, "email+xms_edov", false
	}
	return "", "", false
}

func emailDomain(e string) string { return e[strings.LastIndexByte(e, '@')+1:] }

func newNonce() (string, error) {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}
