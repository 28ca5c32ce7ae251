package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/testsupport/smtptest"
)

const from = "Simulador Complexivo <no-reply@utpl.edu.ec>"

func sender(srv *smtptest.Server, user, password string, implicit bool) *SMTP {
	s := NewSMTP(config.Mail{Host: srv.Host, Port: srv.Port, Username: user, Password: password, ImplicitTLS: implicit, From: from,
		PublicURL: "https://simulador.utpl.edu.ec"})
	s.TLS = &tls.Config{RootCAs: srv.RootCAs}
	return s
}

var msg = Message{To: "ana.perez@utpl.edu.ec", Subject: "Restablezca su contraseña",
	Text: "Hola, Ana:\n\nAbra este enlace, válido una hora:\n\nhttps://simulador.utpl.edu.ec/login#restablecer=" + strings.Repeat("x", 43) + "\n"}

// decoded parses what the server received and returns the headers and
// the decoded text.
func decoded(t *testing.T, data []byte) (mail.Header, string) {
	t.Helper()
	m, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Header.Get("Content-Transfer-Encoding"); got != "quoted-printable" {
		t.Fatalf("Content-Transfer-Encoding = %q", got)
	}
	body, err := io.ReadAll(m.Body) // net/mail leaves the transfer encoding
	if err != nil {
		t.Fatal(err)
	}
	text, err := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(body)))
	if err != nil {
		t.Fatal(err)
	}
	return m.Header, strings.ReplaceAll(string(text), "\r\n", "\n")
}

func TestSendsOverSTARTTLSWithPlainAuth(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Username: "envios@utpl.edu.ec", Password: "clave-del-relay"})
	if err := sender(srv, "envios@utpl.edu.ec", "clave-del-relay", false).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	got := srv.Wait(t, 1)
	if !got.TLS || got.AuthUser != "envios@utpl.edu.ec" || got.From != "no-reply@utpl.edu.ec" || len(got.To) != 1 || got.To[0] != msg.To {
		t.Fatalf("received %+v", got)
	}
	h, text := decoded(t, got.Data)
	subject, err := new(mime.WordDecoder).DecodeHeader(h.Get("Subject"))
	if err != nil || subject != msg.Subject || h.Get("To") != "<ana.perez@utpl.edu.ec>" || !strings.Contains(h.Get("From"), "no-reply@utpl.edu.ec") ||
		h.Get("Date") == "" || !strings.HasSuffix(h.Get("Message-Id"), "@utpl.edu.ec>") {
		t.Fatalf("headers %v (subject %q, %v)", h, subject, err)
	}
	if text != msg.Text {
		t.Fatalf("text = %q, want %q", text, msg.Text)
	}
}

func TestSendsOverImplicitTLS(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{ImplicitTLS: true})
	if err := sender(srv, "", "", true).Send(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	if got := srv.Wait(t, 1); !got.TLS {
		t.Fatalf("received %+v", got)
	}
}

// The server's certificate is verified: one the sender does not trust
// stops the message.
func TestRefusesAnUntrustedCertificate(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{})
	s := sender(srv, "", "", false)
	s.TLS = nil // the system roots do not know the test CA
	if err := s.Send(context.Background(), msg); err == nil {
		t.Fatal("sent to a server whose certificate is not trusted")
	}
	if n := len(srv.Messages()); n != 0 {
		t.Fatalf("%d messages arrived", n)
	}
}

// Without STARTTLS only a relay on this machine gets the message.
func TestNoTLSOnlyToALocalRelay(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{NoTLS: true})
	if err := sender(srv, "", "", false).Send(context.Background(), msg); err != nil {
		t.Fatalf("local relay: %v", err)
	}
	if got := srv.Wait(t, 1); got.TLS {
		t.Fatalf("received %+v", got)
	}

	defer func(f func(string) bool) { loopback = f }(loopback)
	loopback = func(string) bool { return false } // as if the relay were on another machine
	err := sender(srv, "", "", false).Send(context.Background(), msg)
	if !errors.Is(err, ErrNoTLS) {
		t.Fatalf("err = %v, want ErrNoTLS", err)
	}
	if n := len(srv.Messages()); n != 1 {
		t.Fatalf("%d messages arrived, want only the first", n)
	}
}

// A refused password is reported without the password.
func TestErrorsNeverShowThePassword(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{Username: "envios", Password: "la-correcta"})
	err := sender(srv, "envios", "hunter2-incorrecta", false).Send(context.Background(), msg)
	if err == nil || strings.Contains(err.Error(), "hunter2") || !strings.Contains(err.Error(), srv.Host) {
		t.Fatalf("err = %v", err)
	}
}

func TestRefusesARecipientThatIsNotAnAddress(t *testing.T) {
	srv := smtptest.Start(t, smtptest.Options{})
	bad := msg
	bad.To = "ana@utpl.edu.ec\r\nBcc: otro@x.ec"
	if err := sender(srv, "", "", false).Send(context.Background(), bad); err == nil {
		t.Fatal("header injection accepted")
	}
}
