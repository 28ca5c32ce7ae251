// Package mail sends the few messages the server sends (a password-reset
// link) over SMTP, with Go's net/smtp: TLS from the start (smtps://) or STARTTLS (smtp://),
// with the server's certificate verified. Without TLS it talks only to a
// relay on the same machine (a loopback address): a message carries a
// secret link, and the password, if any, must not cross the network in
// clear.
package mail

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"errors"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/config"
)

// Message is a plain-text message to one recipient.
type Message struct {
	To      string
	Subject string
	Text    string
}

// Sender sends messages.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// SMTP sends through the server config.Mail names.
type SMTP struct {
	cfg config.Mail
	// TLS is the TLS configuration (tests set RootCAs); ServerName is
	// always the configured host.
	TLS *tls.Config
	// Timeout bounds one message: connecting, the conversation, sending.
	Timeout time.Duration
	now     func() time.Time
}

// NewSMTP returns a sender for cfg, or nil when mail is not configured.
func NewSMTP(cfg config.Mail) *SMTP {
	if !cfg.Enabled() {
		return nil
	}
	return &SMTP{cfg: cfg, Timeout: 30 * time.Second, now: time.Now}
}

// loopback reports whether host is this machine (a variable for tests).
var loopback = func(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ErrNoTLS is returned when the server offers no TLS and is not on this
// machine: nothing is sent.
var ErrNoTLS = errors.New("the SMTP server does not offer STARTTLS; nothing is sent without TLS to a server on another machine")

// Send delivers m. Errors name the server, never the password.
func (s *SMTP) Send(ctx context.Context, m Message) error {
	body, err := s.compose(m)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	c, err := s.connect(ctx)
	if err != nil {
		return fmt.Errorf("SMTP %s: %w", s.cfg.Addr(), err)
	}
	defer c.Close()
	if err := s.deliver(c, m.To, body); err != nil {
		return fmt.Errorf("SMTP %s: %w", s.cfg.Addr(), err)
	}
	return nil
}

func (s *SMTP) tlsConfig() *tls.Config {
	t := &tls.Config{MinVersion: tls.VersionTLS12}
	if s.TLS != nil {
		t = s.TLS.Clone()
	}
	t.ServerName = s.cfg.Host
	return t
}

// connect dials, greets and, on smtp://, switches to TLS when the server
// offers it. The connection's deadline is ctx's.
func (s *SMTP) connect(ctx context.Context) (*smtp.Client, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "tcp", s.cfg.Addr())
	if err != nil {
		return nil, err
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	if s.cfg.ImplicitTLS {
		tc := tls.Client(conn, s.tlsConfig())
		if err := tc.HandshakeContext(ctx); err != nil {
			conn.Close()
			return nil, err
		}
		c, err := smtp.NewClient(tc, s.cfg.Host)
		if err != nil {
			tc.Close()
			return nil, err
		}
		if err := c.Hello(helloName(s.cfg.From)); err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
	c, err := smtp.NewClient(conn, s.cfg.Host)
	if err != nil {
		conn.Close()
		return nil, err
	}
	if err := c.Hello(helloName(s.cfg.From)); err != nil {
		c.Close()
		return nil, err
	}
	if ok, _ := c.Extension("STARTTLS"); ok {
		if err := c.StartTLS(s.tlsConfig()); err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
	if !loopback(s.cfg.Host) {
		c.Close()
		return nil, ErrNoTLS
	}
	return c, nil
}

func (s *SMTP) deliver(c *smtp.Client, to string, body []byte) error {
	if s.cfg.Username != "" {
		if ok, _ := c.Extension("AUTH"); !ok {
			return errors.New("the server does not offer AUTH, and a user name is configured")
		}
		// PlainAuth itself refuses to send the password without TLS to a
		// server other than localhost.
		if err := c.Auth(smtp.PlainAuth("", s.cfg.Username, s.cfg.Password, s.cfg.Host)); err != nil {
			return fmt.Errorf("authenticate as %s: %w", s.cfg.Username, err)
		}
	}
	from, err := mail.ParseAddress(s.cfg.From)
	if err != nil {
		return err
	}
	if err := c.Mail(from.Address); err != nil {
		return err
	}
	if err := c.Rcpt(to); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(body); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// compose writes the message: headers (the subject RFC 2047-encoded), a
// UTF-8 body in quoted-printable, lines ending in CRLF.
func (s *SMTP) compose(m Message) ([]byte, error) {
	to, err := mail.ParseAddress(m.To)
	if err != nil || strings.ContainsAny(m.To, "\r\n") {
		return nil, fmt.Errorf("recipient %q is not an address", m.To)
	}
	from, err := mail.ParseAddress(s.cfg.From)
	if err != nil {
		return nil, fmt.Errorf("MAIL_FROM: %w", err)
	}
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	header := func(k, v string) { fmt.Fprintf(&b, "%s: %s\r\n", k, v) }
	header("From", from.String())
	header("To", to.String())
	header("Subject", mime.QEncoding.Encode("utf-8", m.Subject))
	header("Date", s.now().Format(time.RFC1123Z))
	header("Message-ID", "<"+hex.EncodeToString(id)+"@"+domainOf(from.Address)+">")
	header("MIME-Version", "1.0")
	header("Content-Type", "text/plain; charset=UTF-8")
	header("Content-Transfer-Encoding", "quoted-printable")
	b.WriteString("\r\n")
	qp := quotedprintable.NewWriter(&b)
	text := strings.ReplaceAll(strings.ReplaceAll(m.Text, "\r\n", "\n"), "\n", "\r\n")
	if _, err := qp.Write([]byte(text)); err != nil {
		return nil, err
	}
	if err := qp.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return "localhost"
}

// helloName is the name given in EHLO: the sender's domain.
func helloName(from string) string {
	if a, err := mail.ParseAddress(from); err == nil {
		return domainOf(a.Address)
	}
	return "localhost"
}

// ReplyCode is the SMTP reply code of a failed send (550, say), or 0 when
// the failure was not a reply (a connection that failed). It is what a log
// line may keep of the error: a server's reply text often quotes the
// recipient's address.
func ReplyCode(err error) int {
	var reply *textproto.Error
	if errors.As(err, &reply) {
		return reply.Code
	}
	return 0
}
