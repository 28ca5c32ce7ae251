package auth

import (
	"context"
	"testing"
	"time"
)

// S3-13: a sign-in started with the old password and waiting for its
// code ends when the password changes (from the account page or the
// terminal), and `users reset-mfa` ends the tutor's sessions.
func TestS313FactorChangesEndPendingSignInsAndSessions(t *testing.T) {
	f := newAccountFixture(t)
	ctx := context.Background()
	setup, _ := f.s.StartTOTP(ctx, f.tutor, goodPassword)
	if _, err := f.s.ConfirmTOTP(ctx, f.tutor, code(t, setup.Secret, f.clock)); err != nil {
		t.Fatal(err)
	}
	keep, _ := f.signIn(t, f.tutor)
	f.clock = f.clock.Add(30 * time.Second)
	pending, err := f.s.BeginSecondFactor(ctx, f.tutor)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.s.ChangePassword(ctx, f.tutor, goodPassword, "otra-clave-muy-segura-2026", keep); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.s.FinishSecondFactor(ctx, pending, code(t, setup.Secret, f.clock)); errorCode(err) != "mfa_expired" {
		t.Fatalf("a sign-in pending across a password change: %v", err)
	}

	f.clock = f.clock.Add(time.Minute)
	pending, _ = f.s.BeginSecondFactor(ctx, f.tutor)
	if _, err := f.s.SetPassword(ctx, f.tutor.Mail, "tercera-clave-muy-segura-2026"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.s.FinishSecondFactor(ctx, pending, code(t, setup.Secret, f.clock)); errorCode(err) != "mfa_expired" {
		t.Fatalf("a sign-in pending across users set-password: %v", err)
	}

	token, _ := f.signIn(t, f.tutor)
	if _, err := f.s.ResetMFA(ctx, f.tutor.Mail); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.s.Sessions().ResolveSession(ctx, token); err == nil {
		t.Fatal("a session of the tutor outlived users reset-mfa")
	}
}
