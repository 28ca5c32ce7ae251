package auth_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/testsupport/oidctest"
	"github.com/utpl/simulador/backend/internal/testsupport/safebuf"
)

// msConfig is the configuration the server would get from MS_* for iss.
func msConfig(t *testing.T, iss *oidctest.Issuer) config.Microsoft {
	t.Helper()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := iss.WriteCAFile(ca); err != nil {
		t.Fatal(err)
	}
	return config.Microsoft{TenantID: iss.TenantID(), ClientID: iss.ClientID(), Authority: iss.Authority(), CAFile: ca,
		EmailDomains: []string{"utpl.edu.ec"}}
}

func newVerifier(t *testing.T, cfg config.Microsoft) *auth.MicrosoftVerifier {
	t.Helper()
	v, err := auth.NewMicrosoftVerifier(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if v == nil {
		t.Fatal("verifier is nil although configured")
	}
	v.SetLogger(slog.New(slog.NewTextHandler(t.Output(), nil)))
	return v
}

// captureLog collects a verifier's log lines.
func captureLog(t *testing.T, v *auth.MicrosoftVerifier) *safebuf.Buffer {
	b := &safebuf.Buffer{}
	v.SetLogger(slog.New(slog.NewTextHandler(io.MultiWriter(b, t.Output()), nil)))
	return b
}

func mint(t *testing.T, iss *oidctest.Issuer, s oidctest.SignIn) string {
	t.Helper()
	tok, err := iss.IDToken(s)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

var ana = oidctest.User{Email: "Ana.Perez@UTPL.edu.ec", Name: "Ana Pérez", OID: "11111111-2222-4333-8444-555555555555"}

func TestMicrosoftVerifierAcceptsTheTenantsToken(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{})
	v := newVerifier(t, msConfig(t, iss))
	if got, want := v.Issuer(), iss.Authority()+"/v2.0"; got != want {
		t.Errorf("Issuer() = %q, want %q", got, want)
	}
	c, err := v.Verify(context.Background(), mint(t, iss, oidctest.SignIn{User: ana, Nonce: "n-123"}), "n-123")
	if err != nil {
		t.Fatalf("good token refused: %v", err)
	}
	if c.VerifiedEmail != "ana.perez@utpl.edu.ec" || c.EmailSource != "preferred_username" || c.TenantID != iss.TenantID() ||
		c.ObjectID != ana.OID || c.Name != "Ana Pérez" {
		t.Errorf("claims %+v", c)
	}

	// A token without any address is a valid token: the account is known
	// by tid and oid once linked (see TestMicrosoftVerifiedEmail).
	c, err = v.Verify(context.Background(), mint(t, iss, oidctest.SignIn{User: ana, Nonce: "n-1", NoEmail: true}), "n-1")
	if err != nil || c.VerifiedEmail != "" || c.ObjectID != ana.OID {
		t.Fatalf("token without email: %+v, %v", c, err)
	}
}

// Only an address the tenant vouches for counts: the email claim with
// xms_edov, or a user name in one of MS_EMAIL_DOMAINS (F-14).
func TestMicrosoftVerifiedEmail(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{})
	v := newVerifier(t, msConfig(t, iss))
	for _, tc := range []struct {
		name       string
		user       oidctest.User
		want, from string
	}{
		{"user name in a verified domain", oidctest.User{PreferredUsername: "Luis@UTPL.edu.ec"}, "luis@utpl.edu.ec", "preferred_username"},
		{"email claim without xms_edov, user name elsewhere", oidctest.User{Email: "tutora@utpl.edu.ec", PreferredUsername: "intruso@contoso.com"}, "", ""},
		// S3-05: xms_edov vouches for the domain, not the mailbox, so a
		// university address comes from the user name alone.
		{"email claim with xms_edov in a university domain", oidctest.User{Email: "Tutora@utpl.edu.ec", PreferredUsername: "x@contoso.com", EmailVerified: true}, "", ""},
		{"email claim with xms_edov in another domain", oidctest.User{Email: "Ana@Partner.org", PreferredUsername: "x@contoso.com", EmailVerified: true}, "ana@partner.org", "email+xms_edov"},
		{"the user name wins over the mail attribute", oidctest.User{Email: "tutora@utpl.edu.ec", PreferredUsername: "mallory@utpl.edu.ec", EmailVerified: true}, "mallory@utpl.edu.ec", "preferred_username"},
		{"upn in a verified domain", oidctest.User{PreferredUsername: "alias", UPN: "ana.perez@utpl.edu.ec"}, "ana.perez@utpl.edu.ec", "upn"},
		{"a guest's user name", oidctest.User{Email: "ana@gmail.com", PreferredUsername: "ana_gmail.com#EXT#@utpl.edu.ec"}, "", ""},
		{"a subdomain that is not listed", oidctest.User{PreferredUsername: "ana@alumnos.utpl.edu.ec"}, "", ""},
		{"not an address", oidctest.User{Email: "not-an-address"}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.user.OID = ana.OID
			c, err := v.Verify(context.Background(), mint(t, iss, oidctest.SignIn{User: tc.user, Nonce: "n"}), "n")
			if err != nil {
				t.Fatal(err)
			}
			if c.VerifiedEmail != tc.want || c.EmailSource != tc.from {
				t.Errorf("verified email = %q from %q, want %q from %q", c.VerifiedEmail, c.EmailSource, tc.want, tc.from)
			}
		})
	}
}

func TestMicrosoftVerifierRefuses(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{})
	v := newVerifier(t, msConfig(t, iss))
	logs := captureLog(t, v)
	// A refused token is the client's problem, not a warning.
	defer func() {
		if strings.Contains(logs.String(), "level=WARN") {
			t.Errorf("refused tokens logged warnings:\n%s", logs)
		}
	}()
	for _, tc := range []struct {
		name   string
		signIn oidctest.SignIn
		nonce  string // what the server expects (the start cookie)
		want   string // part of the error
	}{
		{"another tenant", oidctest.SignIn{User: ana, Nonce: "n", OtherTenant: true}, "n", "issued by a different provider"},
		{"tid of another tenant", oidctest.SignIn{User: ana, Nonce: "n", TenantClaim: oidctest.OtherTenantID}, "n", "tenant"},
		{"blank tid", oidctest.SignIn{User: ana, Nonce: "n", TenantClaim: " "}, "n", "tenant"},
		{"wrong audience", oidctest.SignIn{User: ana, Nonce: "n", Audience: "another-app"}, "n", "audience"},
		{"expired", oidctest.SignIn{User: ana, Nonce: "n", Expired: true}, "n", "expired"},
		{"bad signature", oidctest.SignIn{User: ana, Nonce: "n", UnknownKey: true}, "n", "signature"},
		{"wrong nonce", oidctest.SignIn{User: ana, Nonce: "other"}, "n", "nonce"},
		{"nonce missing from the token", oidctest.SignIn{User: ana}, "n", "nonce"},
		{"no nonce expected (no start cookie)", oidctest.SignIn{User: ana, Nonce: "n"}, "", "nonce"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := v.Verify(context.Background(), mint(t, iss, tc.signIn), tc.nonce)
			if err == nil {
				t.Fatalf("accepted: %+v", c)
			}
			if !strings.Contains(strings.ToLower(err.Error()), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
	t.Run("garbage", func(t *testing.T) {
		if _, err := v.Verify(context.Background(), "not.a.jwt", "n"); err == nil {
			t.Fatal("accepted garbage")
		}
	})
}

func TestMicrosoftVerifierCAFile(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{})
	tok := mint(t, iss, oidctest.SignIn{User: ana, Nonce: "n"})

	t.Run("without it the issuer's certificate is not trusted, and that is a warning", func(t *testing.T) {
		cfg := msConfig(t, iss)
		cfg.CAFile = ""
		v := newVerifier(t, cfg)
		logs := captureLog(t, v)
		_, err := v.Verify(context.Background(), tok, "n")
		if err == nil || !strings.Contains(err.Error(), "certificate") {
			t.Fatalf("err = %v, want a certificate error", err)
		}
		if l := logs.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "discovery") || !strings.Contains(l, "certificate") {
			t.Fatalf("log = %q, want a warning about discovery naming the certificate problem", l)
		}
	})
	t.Run("a file without a certificate is refused at start", func(t *testing.T) {
		cfg := msConfig(t, iss)
		if err := os.WriteFile(cfg.CAFile, []byte("not a PEM file\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := auth.NewMicrosoftVerifier(cfg); err == nil || !strings.Contains(err.Error(), "MS_CA_FILE") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a missing file is refused at start", func(t *testing.T) {
		cfg := msConfig(t, iss)
		cfg.CAFile = filepath.Join(t.TempDir(), "missing.pem")
		if _, err := auth.NewMicrosoftVerifier(cfg); err == nil || !strings.Contains(err.Error(), "MS_CA_FILE") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("not configured gives no verifier", func(t *testing.T) {
		v, err := auth.NewMicrosoftVerifier(config.Microsoft{})
		if err != nil || v != nil {
			t.Fatalf("got %v, %v", v, err)
		}
	})
}

func TestMicrosoftVerifierWarnsWhenTheIssuerIsUnreachable(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{})
	tok := mint(t, iss, oidctest.SignIn{User: ana, Nonce: "n"})
	cfg := msConfig(t, iss)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Authority = "https://" + ln.Addr().String() + "/" + iss.TenantID()
	ln.Close() // nothing listens there any more
	v := newVerifier(t, cfg)
	logs := captureLog(t, v)
	if _, err := v.Verify(context.Background(), tok, "n"); err == nil {
		t.Fatal("verified without reaching the issuer")
	}
	if l := logs.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "discovery") || !strings.Contains(l, "refused") {
		t.Fatalf("log = %q, want a warning about discovery naming the network problem", l)
	}
}

func TestMicrosoftVerifierWarnsWhenKeysCannotBeFetched(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{})
	v := newVerifier(t, msConfig(t, iss))
	logs := captureLog(t, v)
	if _, err := v.Verify(context.Background(), mint(t, iss, oidctest.SignIn{User: ana, Nonce: "n"}), "n"); err != nil {
		t.Fatal(err)
	}
	// A token the cached key does not verify makes the verifier download the
	// keys again, now from an issuer that is gone.
	tok := mint(t, iss, oidctest.SignIn{User: ana, Nonce: "n", UnknownKey: true})
	if err := iss.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(context.Background(), tok, "n"); err == nil {
		t.Fatal("accepted a token signed with an unknown key")
	}
	if l := logs.String(); !strings.Contains(l, "level=WARN") || !strings.Contains(l, "signing keys") {
		t.Fatalf("log = %q, want a warning about the signing keys", l)
	}
}

func TestMicrosoftVerifierNeedsATenantGUID(t *testing.T) {
	iss := oidctest.New(t, oidctest.Options{})
	cfg := msConfig(t, iss)
	cfg.TenantID = "utpl.edu.ec"
	if _, err := auth.NewMicrosoftVerifier(cfg); err == nil || !strings.Contains(err.Error(), "MS_TENANT_ID") {
		t.Fatalf("err = %v, want MS_TENANT_ID named", err)
	}
	// Upper or lower case: the tid claim is compared without case.
	cfg = msConfig(t, iss)
	cfg.TenantID = strings.ToUpper(cfg.TenantID)
	v := newVerifier(t, cfg)
	if _, err := v.Verify(context.Background(), mint(t, iss, oidctest.SignIn{User: ana, Nonce: "n"}), "n"); err != nil {
		t.Fatalf("upper-case tenant: %v", err)
	}
}
