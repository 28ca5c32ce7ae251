// Package oidctest is a real OpenID Connect issuer for tests, shaped like
// Microsoft Entra ID: discovery, keys, authorize, token and logout endpoints
// under /{tenant}/..., an issuer of https://host/{tenant}/v2.0, RS256 ID
// tokens with Entra's claims (tid, oid, preferred_username, email).
//
// It runs in-process over HTTPS with a certificate signed by a CA generated
// at start (CAPEM, WriteCAFile), because MSAL.js refuses non-https
// authorities. The authorize endpoint approves at once as the configured
// user (SetNext, or the default user) and the token endpoint redeems the
// code with PKCE (S256), with CORS for the redirect URI's origin, as a
// single-page app's MSAL expects. IDToken mints tokens directly, with the
// faults a verifier must refuse (another tenant, wrong audience, expired,
// a key not in the JWKS, wrong or missing nonce, no email).
//
// It is for tests only: it authenticates nobody.
package oidctest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// Identifiers used when Options leave them empty. They are GUIDs, like
// Entra's, so that a verifier pinning the tenant by GUID is exercised.
const (
	DefaultTenantID = "6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f"
	DefaultClientID = "0e1d2c3b-4a59-4867-9c5d-1e2f3a4b5c6d"
	// OtherTenantID is the tenant SignIn.OtherTenant issues tokens for.
	OtherTenantID = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	// GraphAudience is the audience of the access tokens (Microsoft Graph).
	GraphAudience = "00000003-0000-0000-c000-000000000000"
)

// DefaultUser signs in when no SetNext is pending and Options.DefaultUser is
// empty.
var DefaultUser = User{Email: "estudiante.prueba@utpl.edu.ec", Name: "Estudiante de Prueba"}

// Options configure an Issuer. The zero value is usable.
type Options struct {
	// Addr is the listen address; default 127.0.0.1:0 (a free port).
	Addr string
	// TenantID is the only tenant served; default DefaultTenantID.
	TenantID string
	// ClientID is the only application registered; default DefaultClientID.
	ClientID string
	// RedirectURIs are the registered redirect URIs. Empty accepts any
	// absolute http(s) URI.
	RedirectURIs []string
	// DefaultUser signs in when no SetNext is pending; default DefaultUser.
	DefaultUser User
	// Control serves the test-control API under /_control/ (see
	// ControlHandler), for callers in another process.
	Control bool
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Issuer is a running test issuer. Close it when done.
type Issuer struct {
	opts    Options
	baseURL string
	certs   *certificates
	key     *rsa.PrivateKey // published in the JWKS
	foreign *rsa.PrivateKey // not published: signatures with it must fail
	keyID   string
	srv     *http.Server
	ln      net.Listener
	done    chan struct{}

	mu      sync.Mutex
	next    *SignIn
	codes   map[string]*grant
	pending map[string]*grant // interactive sign-ins waiting for the button
}

// Start generates the certificates and keys and serves HTTPS on opts.Addr.
func Start(opts Options) (*Issuer, error) {
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.TenantID == "" {
		opts.TenantID = DefaultTenantID
	}
	if opts.ClientID == "" {
		opts.ClientID = DefaultClientID
	}
	if opts.DefaultUser.Email == "" && opts.DefaultUser.PreferredUsername == "" {
		opts.DefaultUser = DefaultUser
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if strings.ContainsAny(opts.TenantID, "/?#") {
		return nil, fmt.Errorf("oidctest: tenant %q must be one path segment", opts.TenantID)
	}

	certs, err := newCertificates(opts.Now())
	if err != nil {
		return nil, err
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	foreign, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("oidctest: listen on %s: %w", opts.Addr, err)
	}
	host, port, _ := net.SplitHostPort(ln.Addr().String())
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}

	i := &Issuer{
		opts:    opts,
		baseURL: "https://" + net.JoinHostPort(host, port),
		certs:   certs,
		key:     key,
		foreign: foreign,
		keyID:   randomString(12),
		ln:      ln,
		done:    make(chan struct{}),
		codes:   map[string]*grant{},
		pending: map[string]*grant{},
	}
	i.srv = &http.Server{
		Handler:           i.handler(),
		ReadHeaderTimeout: 10 * time.Second,
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{certs.server}, MinVersion: tls.VersionTLS12},
	}
	go func() {
		defer close(i.done)
		_ = i.srv.ServeTLS(ln, "", "")
	}()
	return i, nil
}

// New starts an issuer for a test and closes it when the test ends.
func New(tb testing.TB, opts Options) *Issuer {
	tb.Helper()
	i, err := Start(opts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = i.Close() })
	return i
}

// Close stops the server.
func (i *Issuer) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := i.srv.Shutdown(ctx)
	<-i.done
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}

// URL is the server's base URL, https://127.0.0.1:PORT.
func (i *Issuer) URL() string { return i.baseURL }

// TenantID is the tenant the issuer serves.
func (i *Issuer) TenantID() string { return i.opts.TenantID }

// ClientID is the registered application.
func (i *Issuer) ClientID() string { return i.opts.ClientID }

// Authority is what MSAL and the server are configured with:
// https://127.0.0.1:PORT/{tenant}.
func (i *Issuer) Authority() string { return i.authority(i.opts.TenantID) }

// Issuer is the iss of the tenant's tokens: Authority()+"/v2.0".
func (i *Issuer) Issuer() string { return i.issuer(i.opts.TenantID) }

func (i *Issuer) authority(tenant string) string { return i.baseURL + "/" + tenant }
func (i *Issuer) issuer(tenant string) string    { return i.authority(tenant) + "/v2.0" }

// CAPEM is the generated CA certificate in PEM, to be trusted by clients.
func (i *Issuer) CAPEM() []byte { return append([]byte(nil), i.certs.caPEM...) }

// WriteCAFile writes the CA certificate (PEM) to path.
func (i *Issuer) WriteCAFile(path string) error { return os.WriteFile(path, i.certs.caPEM, 0o644) }

// Client returns an HTTP client that trusts the issuer's certificate.
func (i *Issuer) Client() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: i.certs.caPool, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// SetNext makes s the next sign-in of the authorize endpoint (used once).
// A zero s.User means the default user.
func (i *Issuer) SetNext(s SignIn) {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.next = &s
}

// ClearNext forgets a pending SetNext.
func (i *Issuer) ClearNext() {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.next = nil
}

// takeNext returns the pending sign-in, or the default user's.
func (i *Issuer) takeNext() SignIn {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.next == nil {
		return SignIn{User: i.opts.DefaultUser}
	}
	s := *i.next
	i.next = nil
	return i.withDefaultUser(s)
}

func (i *Issuer) withDefaultUser(s SignIn) SignIn {
	if s.User == (User{}) {
		s.User = i.opts.DefaultUser
	}
	return s
}
