package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
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

// S3-14: at sign-in only wrong codes count, per user, with waits that
// double: the owner signing in often is never refused, and whoever holds
// the password waits longer after each wrong code past ten.
func TestS314WrongCodesBackOffAndRightOnesNeverCount(t *testing.T) {
	f := newAccountFixture(t)
	ctx := context.Background()
	setup, _ := f.s.StartTOTP(ctx, f.tutor, goodPassword)
	if _, err := f.s.ConfirmTOTP(ctx, f.tutor, code(t, setup.Secret, f.clock)); err != nil {
		t.Fatal(err)
	}
	f.clock = f.clock.Add(15 * time.Minute) // the enrolment's allowance is over
	for i := range 12 {
		f.clock = f.clock.Add(30 * time.Second) // a new step: no replay
		pending, _ := f.s.BeginSecondFactor(ctx, f.tutor)
		if _, _, err := f.s.FinishSecondFactor(ctx, pending, code(t, setup.Secret, f.clock)); err != nil {
			t.Fatalf("the owner's sign-in %d with a right code: %v", i+1, err)
		}
	}
	wrong := func() string {
		pending, _ := f.s.BeginSecondFactor(ctx, f.tutor)
		_, _, err := f.s.FinishSecondFactor(ctx, pending, "000000")
		return errorCode(err)
	}
	for i := range totpFreeFailures {
		if got := wrong(); got != "invalid_code" {
			t.Fatalf("wrong code %d: %s", i+1, got)
		}
	}
	if got := wrong(); got != CodeRateLimited {
		t.Fatalf("past ten wrong codes: %s, want %s", got, CodeRateLimited)
	}
	f.clock = f.clock.Add(31 * time.Second)
	if got := wrong(); got != "invalid_code" {
		t.Fatalf("after the first wait: %s", got)
	}
	f.clock = f.clock.Add(31 * time.Second)
	if got := wrong(); got != CodeRateLimited {
		t.Fatalf("the second wait is longer than the first: %s, want %s", got, CodeRateLimited)
	}
}

// S3-12: recovery codes are stored salted and stretched (no stored value
// is the SHA-256 of its code, and two users' equal codes would differ);
// a code stored the old way still works once.
func TestS312RecoveryCodesAreStoredSalted(t *testing.T) {
	f := newAccountFixture(t)
	ctx := context.Background()
	setup, _ := f.s.StartTOTP(ctx, f.tutor, goodPassword)
	codes, err := f.s.ConfirmTOTP(ctx, f.tutor, code(t, setup.Secret, f.clock))
	if err != nil {
		t.Fatal(err)
	}
	m, err := f.s.store.GetMFA(ctx, f.tutor.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range codes {
		sum := sha256.Sum256([]byte("recovery|" + normalizeCode(c)))
		for _, rc := range m.RecoveryCodes {
			if rc.Hash == hex.EncodeToString(sum[:]) || !strings.HasPrefix(rc.Hash, recoveryHashPrefix) {
				t.Fatalf("a recovery code is stored unsalted: %s", rc.Hash)
			}
		}
	}
	pending, _ := f.s.BeginSecondFactor(ctx, f.tutor)
	if _, method, err := f.s.FinishSecondFactor(ctx, pending, strings.ToUpper(codes[3])); err != nil || method != MethodRecoveryCode {
		t.Fatalf("a salted recovery code: %v %s", err, method)
	}

	// A code stored before salting (the bare SHA-256) still signs in once.
	legacy := "abcde-fghij"
	sum := sha256.Sum256([]byte("recovery|" + normalizeCode(legacy)))
	m.RecoveryCodes = append(m.RecoveryCodes, domain.RecoveryCode{Hash: hex.EncodeToString(sum[:])})
	if err := f.s.store.PutMFA(ctx, m); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"ok", "invalid_code"} {
		pending, _ := f.s.BeginSecondFactor(ctx, f.tutor)
		if _, _, err := f.s.FinishSecondFactor(ctx, pending, legacy); errorCode(err) != want {
			t.Fatalf("legacy code, use %d: %v, want %q", i+1, err, want)
		}
	}
}
