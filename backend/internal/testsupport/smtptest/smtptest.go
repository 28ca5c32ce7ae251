// Package smtptest runs an SMTP server in the test's process, built on
// github.com/emersion/go-smtp: it speaks the real protocol (EHLO,
// STARTTLS with a certificate generated for 127.0.0.1, AUTH PLAIN, MAIL,
// RCPT, DATA) and keeps what it received, so a test can check what the
// server sent and how.
package smtptest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Options choose what the server offers.
type Options struct {
	// NoTLS offers no STARTTLS (a bare relay).
	NoTLS bool
	// ImplicitTLS speaks TLS from the first byte (smtps://).
	ImplicitTLS bool
	// Username and Password, when set, are the only credentials AUTH
	// PLAIN accepts (only over TLS); mail is then refused without them.
	Username, Password string
}

// Received is one message as the server got it.
type Received struct {
	From string
	To   []string
	Data []byte
	// TLS reports whether the message came over TLS.
	TLS bool
	// AuthUser and AuthPassword are the credentials given, if any.
	AuthUser, AuthPassword string
}

// Server is a running SMTP server.
type Server struct {
	Host, Port string
	// RootCAs trusts the server's certificate.
	RootCAs *x509.CertPool

	opts     Options
	srv      *smtp.Server
	mu       sync.Mutex
	received []Received
	arrived  chan struct{}
}

// Start runs a server on 127.0.0.1 and a free port until the test ends.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	cert, pool, err := certificate()
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{RootCAs: pool, opts: opts, arrived: make(chan struct{}, 100)}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) { return &session{s: s, c: c}, nil }))
	s.srv.Domain = "localhost"
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	s.srv.MaxMessageBytes = 1 << 20
	s.srv.ErrorLog = discard{}
	tlsConfig := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	if !opts.NoTLS {
		s.srv.TLSConfig = tlsConfig
	}
	var ln net.Listener
	if opts.ImplicitTLS {
		ln, err = tls.Listen("tcp", "127.0.0.1:0", tlsConfig)
	} else {
		ln, err = net.Listen("tcp", "127.0.0.1:0")
	}
	if err != nil {
		t.Fatal(err)
	}
	s.Host, s.Port, _ = net.SplitHostPort(ln.Addr().String())
	go func() { _ = s.srv.Serve(ln) }()
	t.Cleanup(func() { _ = s.srv.Close() })
	return s
}

// Messages returns what arrived so far.
func (s *Server) Messages() []Received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Received(nil), s.received...)
}

// Wait returns the n-th message (from 1), waiting up to ten seconds.
func (s *Server) Wait(t testing.TB, n int) Received {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if got := s.Messages(); len(got) >= n {
			return got[n-1]
		}
		select {
		case <-s.arrived:
		case <-deadline:
			t.Fatalf("message %d did not arrive (%d did)", n, len(s.Messages()))
		}
	}
}

type session struct {
	s          *Server
	c          *smtp.Conn
	msg        Received
	authorized bool
}

var errAuthRequired = &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "Authentication required"}

func (x *session) AuthMechanisms() []string {
	if x.s.opts.Username == "" {
		return nil
	}
	return []string{sasl.Plain}
}

func (x *session) Auth(mech string) (sasl.Server, error) {
	return sasl.NewPlainServer(func(identity, username, password string) error {
		x.msg.AuthUser, x.msg.AuthPassword = username, password
		if username != x.s.opts.Username || password != x.s.opts.Password {
			return errors.New("invalid credentials")
		}
		x.authorized = true
		return nil
	}), nil
}

func (x *session) Mail(from string, _ *smtp.MailOptions) error {
	if x.s.opts.Username != "" && !x.authorized {
		return errAuthRequired
	}
	x.msg.From = from
	return nil
}

func (x *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	x.msg.To = append(x.msg.To, to)
	return nil
}

func (x *session) Data(r io.Reader) error {
	b, err := io.ReadAll(r)
	if err != nil {
		return err
	}
	msg := x.msg
	msg.Data = b
	_, msg.TLS = x.c.TLSConnectionState()
	x.s.mu.Lock()
	x.s.received = append(x.s.received, msg)
	x.s.mu.Unlock()
	select {
	case x.s.arrived <- struct{}{}:
	default:
	}
	return nil
}

func (x *session) Reset()        { x.msg.From, x.msg.To = "", nil }
func (x *session) Logout() error { return nil }

type discard struct{}

func (discard) Printf(string, ...any) {}
func (discard) Println(...any)        {}

// certificate makes a self-signed certificate for 127.0.0.1 and localhost.
func certificate() (tls.Certificate, *x509.CertPool, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "smtptest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool, nil
}
