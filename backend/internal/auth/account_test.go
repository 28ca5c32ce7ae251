package auth

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
	mailer "github.com/utpl/simulador/backend/internal/mail"
	"github.com/utpl/simulador/backend/internal/testsupport/smtptest"
)

// accountFixture is a service with a tutor, a student in the tutor's
// active group and a student outside it.
type accountFixture struct {
	s                  *Service
	tutor, member, out domain.User
	clock              time.Time
}

func newAccountFixture(t *testing.T) *accountFixture {
	t.Helper()
	s, _ := newTestService(t)
	ctx := context.Background()
	f := &accountFixture{s: s, clock: time.Now().UTC().Truncate(time.Second)}
	s.now = func() time.Time { return f.clock }
	s.sessions.now = s.now
	var err error
	if f.tutor, err = s.CreateUser(ctx, "tutora@utpl.edu.ec", goodPassword, domain.RoleTutor, "Tania Tutora"); err != nil {
		t.Fatal(err)
	}
	if f.member, err = s.CreateUser(ctx, "ana@utpl.edu.ec", goodPassword, domain.RoleStudent, "Ana Pérez"); err != nil {
		t.Fatal(err)
	}
	if f.out, err = s.CreateUser(ctx, "otro@utpl.edu.ec", goodPassword, domain.RoleStudent, "Otro"); err != nil {
		t.Fatal(err)
	}
	g := domain.Group{ID: domain.NewID(), Carrera: "derecho", DocenteEmail: f.tutor.Mail, Status: domain.GroupActive, CreatedAt: f.clock,
		Estudiantes: []domain.GroupStudent{{Email: f.member.Mail, Name: "Ana Pérez", AddedAt: f.clock}}}
	if err := s.store.CreateGroup(ctx, g); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *accountFixture) signIn(t *testing.T, u domain.User) (string, domain.Session) {
	t.Helper()
	token, se, err := f.s.StartSession(context.Background(), u, MethodPassword, "test", "192.0.2.1")
	if err != nil {
		t.Fatal(err)
	}
	return token, se
}

func TestChangePasswordKeepsTheCurrentSessionAndEndsTheOthers(t *testing.T) {
	f := newAccountFixture(t)
	ctx := context.Background()
	mine, current := f.signIn(t, f.member)
	other, _ := f.signIn(t, f.member)
	if code := errorCode(func() error { _, err := f.s.ChangePassword(ctx, f.member, goodPassword, "123", current.ID); return err }()); code != "weak_password" {
		t.Fatalf("weak new password: %s", code)
	}
	if code := errorCode(func() error {
		_, err := f.s.ChangePassword(ctx, f.member, goodPassword, goodPassword, current.ID)
		return err
	}()); code != "same_password" {
		t.Fatalf("same password: %s", code)
	}
	if _, err := f.s.ChangePassword(ctx, f.member, "mala-clave", "otra-clave-larga-9", current.ID); errorCode(err) != "wrong_password" {
		t.Fatalf("wrong current password: %v", err)
	}
	n, err := f.s.ChangePassword(ctx, f.member, goodPassword, "otra-clave-larga-9", current.ID)
	if err != nil || n != 1 {
		t.Fatalf("ChangePassword = %d, %v; want 1 session ended", n, err)
	}
	if _, err := f.s.Sessions().Resolve(ctx, mine); err != nil {
		t.Fatalf("the current session ended: %v", err)
	}
	if _, err := f.s.Sessions().Resolve(ctx, other); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("another session survived: %v", err)
	}
	if _, err := f.s.LoginPassword(ctx, f.member.Mail, "otra-clave-larga-9", "192.0.2.2"); err != nil {
		t.Fatalf("the new password: %v", err)
	}
}

// Guessing the current password from a stolen session is limited in the
// store (five tries in 15 minutes), across instances.
func TestPasswordChecksAreRateLimited(t *testing.T) {
	f := newAccountFixture(t)
	ctx := context.Background()
	for i := range limitPasswordCheck.max {
		if _, err := f.s.ChangePassword(ctx, f.member, "mala-clave", "otra-clave-larga-9", ""); errorCode(err) != "wrong_password" {
			t.Fatalf("try %d: %v", i+1, err)
		}
	}
	_, err := f.s.ChangePassword(ctx, f.member, goodPassword, "otra-clave-larga-9", "")
	var ue *domain.UserError
	if !errors.As(err, &ue) || ue.Code != CodeRateLimited || !errors.Is(err, domain.ErrTooManyRequests) {
		t.Fatalf("the right password after five wrong ones: %v", err)
	}
	f.clock = f.clock.Add(limitPasswordCheck.window)
	if _, err := f.s.ChangePassword(ctx, f.member, goodPassword, "otra-clave-larga-9", ""); err != nil {
		t.Fatalf("after the window: %v", err)
	}
}

func TestSessionsAreListedAndEndedByID(t *testing.T) {
	f := newAccountFixture(t)
	ctx := context.Background()
	_, first := f.signIn(t, f.member)
	f.clock = f.clock.Add(time.Minute)
	second, current := f.signIn(t, f.member)
	_, theirs := f.signIn(t, f.out)
	list, err := f.s.UserSessions(ctx, f.member)
	if err != nil || len(list) != 2 || list[0].ID != current.ID || list[1].ID != first.ID {
		t.Fatalf("UserSessions = %+v, %v", list, err)
	}
	if err := f.s.EndSession(ctx, f.member, theirs.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("ending another user's session: %v", err)
	}
	if err := f.s.EndSession(ctx, f.member, first.ID); err != nil {
		t.Fatal(err)
	}
	if list, _ := f.s.UserSessions(ctx, f.member); len(list) != 1 || list[0].ID != current.ID {
		t.Fatalf("after ending one: %+v", list)
	}
	_, _ = f.signIn(t, f.member)
	if n, err := f.s.EndOtherSessions(ctx, f.member, current.ID); err != nil || n != 1 {
		t.Fatalf("EndOtherSessions = %d, %v", n, err)
	}
	if _, err := f.s.Sessions().Resolve(ctx, second); err != nil {
		t.Fatalf("the kept session: %v", err)
	}
	if list, _ := f.s.UserSessions(ctx, f.out); len(list) != 1 {
		t.Fatalf("another user's sessions were touched: %+v", list)
	}
}

// withMail gives the fixture's service a real SMTP conversation with a
// test server, and returns it.
func (f *accountFixture) withMail(t *testing.T) *smtptest.Server {
	t.Helper()
	srv := smtptest.Start(t, smtptest.Options{})
	m := mailer.NewSMTP(config.Mail{Host: srv.Host, Port: srv.Port, From: "Simulador <no-reply@utpl.edu.ec>"})
	m.TLS = &tls.Config{RootCAs: srv.RootCAs}
	f.s.Configure(Options{Log: f.s.log, Mailer: m, PublicURL: "https://simulador.utpl.edu.ec/"})
	return srv
}

// mailText is the decoded text of the n-th message srv received.
func mailText(t *testing.T, srv *smtptest.Server, n int) (smtptest.Received, string) {
	t.Helper()
	got := srv.Wait(t, n)
	msg, err := mail.ReadMessage(bytes.NewReader(got.Data))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(msg.Body)
	text, _ := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(raw)))
	return got, string(text)
}

// mailedToken is the reset token of the n-th message srv received.
func mailedToken(t *testing.T, srv *smtptest.Server, n int) string {
	t.Helper()
	_, body := mailText(t, srv, n)
	const prefix = "https://simulador.utpl.edu.ec/login#restablecer="
	i := strings.Index(body, prefix)
	if i < 0 {
		t.Fatalf("no link in:\n%s", body)
	}
	return strings.Fields(body[i+len(prefix):])[0]
}

func TestResetLinkWorksOnceForAnHour(t *testing.T) {
	f := newAccountFixture(t)
	srv := f.withMail(t)
	ctx := context.Background()
	token, _ := f.signIn(t, f.member)

	for _, id := range []string{f.out.ID, f.tutor.ID, "no-such-user"} {
		if _, err := f.s.IssueReset(ctx, f.tutor, id); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("reset for %s, not in the group: %v", id, err)
		}
	}
	link, err := f.s.IssueReset(ctx, f.tutor, f.member.ID)
	if err != nil || !link.ExpiresAt.Equal(f.clock.Add(time.Hour)) || !link.Emailed {
		t.Fatalf("IssueReset = %+v, %v", link, err)
	}
	raw := mailedToken(t, srv, 1)
	if _, err := f.s.store.GetToken(ctx, raw); !errors.Is(err, domain.ErrNotFound) {
		t.Fatal("the raw token is stored; only its hash may be")
	}
	if err := f.s.UseReset(ctx, raw, "123", "192.0.2.9"); errorCode(err) != "weak_password" {
		t.Fatalf("weak password: %v", err)
	}
	// Two uses at once: one sets the password, the other finds it used.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, pw := range []string{"primera-clave-larga-1", "segunda-clave-larga-2"} {
		wg.Go(func() { errs[i] = f.s.UseReset(ctx, raw, pw, "192.0.2.9") })
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) || errorCode(errors.Join(errs[0], errs[1])) != "reset_link_used" {
		t.Fatalf("racing uses: %v / %v", errs[0], errs[1])
	}
	if _, err := f.s.Sessions().Resolve(ctx, token); !errors.Is(err, domain.ErrUnauthenticated) {
		t.Fatalf("the student's session survived the reset: %v", err)
	}
	if err := f.s.UseReset(ctx, raw, "tercera-clave-larga-3", "192.0.2.9"); errorCode(err) != "reset_link_used" {
		t.Fatalf("a third use: %v", err)
	}
	// The student is told of the change at their own address.
	if got, body := mailText(t, srv, 2); got.To[0] != f.member.Mail || !strings.Contains(body, "nueva contraseña") {
		t.Fatalf("notice to %v:\n%s", got.To, body)
	}

	// A new link replaces the old; it ends after an hour.
	if _, err := f.s.IssueReset(ctx, f.tutor, f.member.ID); err != nil {
		t.Fatal(err)
	}
	first := mailedToken(t, srv, 3)
	if _, err := f.s.IssueReset(ctx, f.tutor, f.member.ID); err != nil {
		t.Fatal(err)
	}
	second := mailedToken(t, srv, 4)
	if err := f.s.UseReset(ctx, first, "cuarta-clave-larga-4", "192.0.2.9"); errorCode(err) != "reset_link_invalid" {
		t.Fatalf("a replaced link: %v", err)
	}
	f.clock = f.clock.Add(time.Hour)
	if err := f.s.UseReset(ctx, second, "cuarta-clave-larga-4", "192.0.2.9"); errorCode(err) != "reset_link_expired" {
		t.Fatalf("a link an hour old: %v", err)
	}
}

func TestResetIssuanceIsRateLimited(t *testing.T) {
	f := newAccountFixture(t)
	f.withMail(t)
	ctx := context.Background()
	for i := range limitResetIssueStudent.max {
		if _, err := f.s.IssueReset(ctx, f.tutor, f.member.ID); err != nil {
			t.Fatalf("link %d: %v", i+1, err)
		}
	}
	if _, err := f.s.IssueReset(ctx, f.tutor, f.member.ID); errorCode(err) != CodeRateLimited {
		t.Fatalf("one link too many for a student: %v", err)
	}
}

// The e-mailed link goes through a real SMTP conversation; the message is
// Spanish, names the tutor and carries the link in a fragment.
func TestResetLinkByEmail(t *testing.T) {
	f := newAccountFixture(t)
	ctx := context.Background()
	if _, err := f.s.IssueReset(ctx, f.tutor, f.member.ID); errorCode(err) != "mail_not_configured" {
		t.Fatalf("a link without mail configured: %v", err)
	}
	srv := f.withMail(t)
	link, err := f.s.IssueReset(ctx, f.tutor, f.member.ID)
	if err != nil || !link.Emailed {
		t.Fatalf("IssueReset by e-mail = %+v, %v", link, err)
	}
	got, body := mailText(t, srv, 1)
	if got.To[0] != f.member.Mail || !got.TLS || !strings.Contains(body, "Hola, Ana:") || !strings.Contains(body, "Tania Tutora") ||
		!strings.Contains(body, "una hora") {
		t.Fatalf("message to %v over TLS=%v:\n%s", got.To, got.TLS, body)
	}
	if err := f.s.UseReset(ctx, mailedToken(t, srv, 1), "nueva-clave-larga-5", "192.0.2.9"); err != nil {
		t.Fatalf("the e-mailed link: %v", err)
	}
}

// An account imported as disabled stays disabled: no reset link is issued
// for it, and a link issued before it was disabled no longer works.
func TestResetLinkNeverReopensADisabledAccount(t *testing.T) {
	ctx := context.Background()
	f := newAccountFixture(t)
	srv := f.withMail(t)
	if _, err := f.s.IssueReset(ctx, f.tutor, f.member.ID); err != nil {
		t.Fatal(err)
	}
	token := mailedToken(t, srv, 1)
	stored, err := f.s.store.PasswordHash(ctx, f.member.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.s.store.SetPasswordHash(ctx, f.member.ID, DisabledCredential(stored)); err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.IssueReset(ctx, f.tutor, f.member.ID); errorCode(err) != "account_disabled" {
		t.Fatalf("a link for a disabled account: %v", err)
	}
	if err := f.s.UseReset(ctx, token, "clave-nueva-larga-77", "192.0.2.9"); err == nil {
		t.Fatal("a link issued before the account was disabled still set a password")
	}
	if after, err := f.s.store.PasswordHash(ctx, f.member.ID); err != nil || !IsDisabledCredential(after) {
		t.Fatalf("the credential after the refused link: disabled=%v, %v", IsDisabledCredential(after), err)
	}
}

// S3-01: a tutor never holds a way into a student's account. The link goes
// only to the student's address; a Microsoft-only student gets no password
// this way; and at use the link is checked again: still a student, still in
// the issuing tutor's active group, the issuer still a tutor.
func TestS301AResetLinkNeverGivesATutorTheStudentsAccount(t *testing.T) {
	ctx := context.Background()
	use := func(f *accountFixture, token string) error {
		return f.s.UseReset(ctx, token, "clave-nueva-del-tutor-9", "192.0.2.9")
	}

	t.Run("a Microsoft-only student", func(t *testing.T) {
		f := newAccountFixture(t)
		f.withMail(t)
		if err := f.s.store.SetPasswordHash(ctx, f.member.ID, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.IssueReset(ctx, f.tutor, f.member.ID); errorCode(err) != "no_local_password" {
			t.Fatalf("a link for an account without a password: %v", err)
		}
	})
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, f *accountFixture)
	}{
		{"the student left the group", func(t *testing.T, f *accountFixture) {
			g, err := f.s.store.ActiveGroupByTutor(ctx, f.tutor.Mail)
			if err != nil {
				t.Fatal(err)
			}
			if err := f.s.store.RemoveGroupStudent(ctx, g.ID, f.member.Mail); err != nil {
				t.Fatal(err)
			}
		}},
		{"the student became a tutor", func(t *testing.T, f *accountFixture) {
			if _, err := f.s.SetRole(ctx, f.member.Mail, domain.RoleTutor); err != nil {
				t.Fatal(err)
			}
		}},
		{"the issuer is no longer a tutor", func(t *testing.T, f *accountFixture) {
			if _, err := f.s.SetRole(ctx, f.tutor.Mail, domain.RoleStudent); err != nil {
				t.Fatal(err)
			}
		}},
		{"the account lost its password", func(t *testing.T, f *accountFixture) {
			if err := f.s.store.SetPasswordHash(ctx, f.member.ID, ""); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newAccountFixture(t)
			srv := f.withMail(t)
			if _, err := f.s.IssueReset(ctx, f.tutor, f.member.ID); err != nil {
				t.Fatal(err)
			}
			token := mailedToken(t, srv, 1)
			tc.change(t, f)
			if err := use(f, token); errorCode(err) != "reset_link_invalid" {
				t.Fatalf("use after the change: %v", err)
			}
			if _, err := f.s.LoginPassword(ctx, f.member.Mail, "clave-nueva-del-tutor-9", "192.0.2.1"); err == nil {
				t.Fatal("the password chosen through the link signs in")
			}
		})
	}
}

// S3-06: junk tokens sent from a shared address do not block a real link
// used there; only failures count.
func TestS306JunkResetTokensDoNotBlockARealLink(t *testing.T) {
	f := newAccountFixture(t)
	srv := f.withMail(t)
	ctx := context.Background()
	if _, err := f.s.IssueReset(ctx, f.tutor, f.member.ID); err != nil {
		t.Fatal(err)
	}
	for range limitResetUse.max + 5 {
		_ = f.s.UseReset(ctx, "basura-basura-basura-basura-basura-basura-12", "clave-nueva-larga-7", "192.0.2.77")
	}
	if err := f.s.UseReset(ctx, "basura", "clave-nueva-larga-7", "192.0.2.77"); errorCode(err) != CodeRateLimited {
		t.Fatalf("junk past the allowance: %v", err)
	}
	if err := f.s.UseReset(ctx, mailedToken(t, srv, 1), "clave-nueva-larga-7", "192.0.2.77"); err != nil {
		t.Fatalf("the student's real link from the same address: %v", err)
	}
}

func TestTutorsRequireMicrosoftRefusesTheirPasswords(t *testing.T) {
	f := newAccountFixture(t)
	f.s.Configure(Options{Log: f.s.log, TutorsRequireMicrosoft: true})
	ctx := context.Background()
	_, err := f.s.LoginPassword(ctx, f.tutor.Mail, goodPassword, "192.0.2.1")
	if errorCode(err) != CodeTutorNeedsMicrosoft || !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("tutor's right password: %v", err)
	}
	if _, err := f.s.LoginPassword(ctx, f.tutor.Mail, "mala-clave", "192.0.2.1"); errorCode(err) != CodeInvalidCredentials {
		t.Fatalf("a wrong password still reads as incorrect (the role is not revealed): %v", err)
	}
	if _, err := f.s.LoginPassword(ctx, f.member.Mail, goodPassword, "192.0.2.1"); err != nil {
		t.Fatalf("a student: %v", err)
	}
	if st, _ := f.s.MFAStatus(ctx, f.tutor); st.Available {
		t.Fatal("TOTP offered to a tutor who must use the university account")
	}
}

func code(t *testing.T, secret string, at time.Time) string {
	t.Helper()
	c, err := totp.GenerateCodeCustom(secret, at, totpOpts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestTOTPEnrolmentSignInAndRecoveryCodes(t *testing.T) {
	f := newAccountFixture(t)
	ctx := context.Background()
	if _, err := f.s.StartTOTP(ctx, f.member, goodPassword); !errors.Is(err, domain.ErrForbidden) {
		t.Fatalf("a student enrolling: %v", err)
	}
	if _, err := f.s.StartTOTP(ctx, f.tutor, "mala-clave"); errorCode(err) != "wrong_password" {
		t.Fatalf("enrolment with a wrong password: %v", err)
	}
	setup, err := f.s.StartTOTP(ctx, f.tutor, goodPassword)
	if err != nil || len(setup.Secret) != 32 || !strings.HasPrefix(setup.URI, "otpauth://totp/") || !bytes.HasPrefix(setup.QRPNG, []byte("\x89PNG")) {
		t.Fatalf("StartTOTP = %+v, %v", setup, err)
	}
	if need, _ := f.s.SecondFactorRequired(ctx, f.tutor); need {
		t.Fatal("a code is asked before enrolment was confirmed")
	}
	if _, err := f.s.ConfirmTOTP(ctx, f.tutor, "000000"); errorCode(err) != "invalid_code" {
		t.Fatalf("a wrong code: %v", err)
	}
	codes, err := f.s.ConfirmTOTP(ctx, f.tutor, code(t, setup.Secret, f.clock))
	if err != nil || len(codes) != 10 || len(codes[0]) != 11 {
		t.Fatalf("ConfirmTOTP = %v, %v", codes, err)
	}
	if st, _ := f.s.MFAStatus(ctx, f.tutor); !st.Enabled || st.RecoveryCodesLeft != 10 {
		t.Fatalf("status %+v", st)
	}

	signIn := func(c string) (domain.User, string, error) {
		t.Helper()
		if need, err := f.s.SecondFactorRequired(ctx, f.tutor); err != nil || !need {
			t.Fatalf("SecondFactorRequired = %v, %v", need, err)
		}
		pending, err := f.s.BeginSecondFactor(ctx, f.tutor)
		if err != nil {
			t.Fatal(err)
		}
		return f.s.FinishSecondFactor(ctx, pending, c)
	}
	// The enrolment's code was of this step: the next step's code signs in,
	// and the same code again is a replay.
	f.clock = f.clock.Add(30 * time.Second)
	now := code(t, setup.Secret, f.clock)
	if u, method, err := signIn(now); err != nil || u.ID != f.tutor.ID || method != MethodPasswordTOTP {
		t.Fatalf("sign-in with a code = %v, %s, %v", u.ID, method, err)
	}
	if _, _, err := signIn(now); errorCode(err) != "invalid_code" {
		t.Fatalf("the same code again: %v", err)
	}
	// A recovery code, typed in capitals without its dash, works once.
	typed := strings.ToUpper(strings.ReplaceAll(codes[3], "-", ""))
	if _, method, err := signIn(typed); err != nil || method != MethodRecoveryCode {
		t.Fatalf("recovery code = %s, %v", method, err)
	}
	if _, _, err := signIn(codes[3]); errorCode(err) != "invalid_code" {
		t.Fatalf("a used recovery code: %v", err)
	}
	if st, _ := f.s.MFAStatus(ctx, f.tutor); st.RecoveryCodesLeft != 9 {
		t.Fatalf("recovery codes left %d", st.RecoveryCodesLeft)
	}

	// A pending sign-in takes five wrong codes, then must start again.
	f.clock = f.clock.Add(15 * time.Minute) // a fresh TOTP window for the user
	pending, _ := f.s.BeginSecondFactor(ctx, f.tutor)
	for i := range limitMFAAttempt.max {
		if _, _, err := f.s.FinishSecondFactor(ctx, pending, "111111"); errorCode(err) != "invalid_code" {
			t.Fatalf("wrong code %d: %v", i+1, err)
		}
	}
	if _, _, err := f.s.FinishSecondFactor(ctx, pending, code(t, setup.Secret, f.clock)); errorCode(err) != "mfa_expired" {
		t.Fatalf("the right code after five wrong ones: %v", err)
	}
	// ...and expires after five minutes.
	f.clock = f.clock.Add(15 * time.Minute)
	pending, _ = f.s.BeginSecondFactor(ctx, f.tutor)
	f.clock = f.clock.Add(MFALoginLifetime)
	if _, _, err := f.s.FinishSecondFactor(ctx, pending, code(t, setup.Secret, f.clock)); errorCode(err) != "mfa_expired" {
		t.Fatalf("a pending sign-in five minutes old: %v", err)
	}

	// Turning it off takes the password and a code.
	f.clock = f.clock.Add(15 * time.Minute)
	if err := f.s.DisableTOTP(ctx, f.tutor, goodPassword, "123456"); errorCode(err) != "invalid_code" {
		t.Fatalf("disable with a wrong code: %v", err)
	}
	if err := f.s.DisableTOTP(ctx, f.tutor, "mala-clave", code(t, setup.Secret, f.clock)); errorCode(err) != "wrong_password" {
		t.Fatalf("disable with a wrong password: %v", err)
	}
	if err := f.s.DisableTOTP(ctx, f.tutor, goodPassword, code(t, setup.Secret, f.clock)); err != nil {
		t.Fatal(err)
	}
	if need, _ := f.s.SecondFactorRequired(ctx, f.tutor); need {
		t.Fatal("a code is still asked after disabling")
	}
}

func TestResetMFAFromTheTerminal(t *testing.T) {
	f := newAccountFixture(t)
	ctx := context.Background()
	setup, _ := f.s.StartTOTP(ctx, f.tutor, goodPassword)
	if _, err := f.s.ConfirmTOTP(ctx, f.tutor, code(t, setup.Secret, f.clock)); err != nil {
		t.Fatal(err)
	}
	pending, _ := f.s.BeginSecondFactor(ctx, f.tutor)
	if _, err := f.s.ResetMFA(ctx, "TUTORA@utpl.edu.ec"); err != nil {
		t.Fatal(err)
	}
	if need, _ := f.s.SecondFactorRequired(ctx, f.tutor); need {
		t.Fatal("a code is still asked after the reset")
	}
	if _, _, err := f.s.FinishSecondFactor(ctx, pending, "123456"); errorCode(err) != "mfa_expired" {
		t.Fatalf("a sign-in pending at the reset: %v", err)
	}
	if _, err := f.s.ResetMFA(ctx, f.tutor.Mail); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("reset without MFA: %v", err)
	}
}
