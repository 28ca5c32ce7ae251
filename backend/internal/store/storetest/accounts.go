package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// raceN runs fn in racers goroutines at once and returns their errors.
func raceN(fn func(i int) error) []error {
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Go(func() { errs[i] = fn(i) })
	}
	wg.Wait()
	return errs
}

// onlyOneSucceeds checks that exactly one error is nil and the others are
// want.
func onlyOneSucceeds(t *testing.T, what string, errs []error, want error) {
	t.Helper()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, want):
			t.Fatalf("%s: unexpected error %v (want %v)", what, err, want)
		}
	}
	if ok != 1 {
		t.Fatalf("%s: %d of %d racing calls succeeded, want 1", what, ok, len(errs))
	}
}

// testUserSessions: a user's sessions are listed newest first with their
// ids, and only theirs.
func testUserSessions(t *testing.T, s store.Store) {
	u := mustUser(t, s, "lista@utpl.edu.ec", domain.RoleStudent)
	other := mustUser(t, s, "ajena@utpl.edu.ec", domain.RoleStudent)
	t0 := now()
	for i, id := range []string{"s-old", "s-new"} {
		at := t0.Add(time.Duration(i) * time.Minute)
		if err := s.CreateSession(ctx, domain.Session{ID: id, TokenHash: "hash-" + id, UserID: u.ID, CreatedAt: at, LastSeenAt: at,
			ExpiresAt: at.Add(time.Hour), UserAgent: "Mozilla/5.0", IP: "192.0.2.1"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateSession(ctx, domain.Session{ID: "s-other", TokenHash: "hash-other", UserID: other.ID, CreatedAt: t0, LastSeenAt: t0, ExpiresAt: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	list, err := s.ListUserSessions(ctx, u.ID)
	if err != nil || len(list) != 2 || list[0].ID != "s-new" || list[1].ID != "s-old" || list[0].TokenHash != "hash-s-new" || list[0].IP != "192.0.2.1" {
		t.Fatalf("ListUserSessions = %+v, %v; want s-new then s-old", list, err)
	}
	if got, err := s.GetSession(ctx, "hash-s-old"); err != nil || got.ID != "s-old" {
		t.Fatalf("GetSession id = %+v, %v", got, err)
	}
	if list, err := s.ListUserSessions(ctx, "nobody"); err != nil || len(list) != 0 {
		t.Fatalf("ListUserSessions(nobody) = %+v, %v", list, err)
	}
}

// testTokens: a one-time token is stored by hash, works once (also under a
// race), and the user's tokens of a kind can be deleted together.
func testTokens(t *testing.T, s store.Store) {
	u := mustUser(t, s, "reset@utpl.edu.ec", domain.RoleStudent)
	tutor := mustUser(t, s, "emisor@utpl.edu.ec", domain.RoleTutor)
	t0 := now()
	tok := domain.OneTimeToken{Hash: "tok-1", Kind: domain.TokenPasswordReset, UserID: u.ID, IssuedBy: tutor.ID, CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
	if err := s.CreateToken(ctx, tok); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateToken(ctx, tok); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("duplicate token: %v, want ErrConflict", err)
	}
	got, err := s.GetToken(ctx, "tok-1")
	if err != nil || got.Hash != tok.Hash || got.Kind != tok.Kind || got.UserID != u.ID || got.IssuedBy != tutor.ID ||
		!got.CreatedAt.Equal(t0) || !got.ExpiresAt.Equal(tok.ExpiresAt) || got.UsedAt != nil {
		t.Fatalf("GetToken = %+v, %v; want %+v", got, err, tok)
	}
	if _, err := s.GetToken(ctx, "missing"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("GetToken(missing): %v", err)
	}
	if err := s.UseToken(ctx, "missing", t0); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("UseToken(missing): %v", err)
	}
	used := t0.Add(time.Minute)
	onlyOneSucceeds(t, "UseToken", raceN(func(int) error { return s.UseToken(ctx, "tok-1", used) }), domain.ErrConflict)
	if got, _ := s.GetToken(ctx, "tok-1"); got.UsedAt == nil || !got.UsedAt.Equal(used) {
		t.Fatalf("used token: %+v", got)
	}
	if err := s.UseToken(ctx, "tok-1", used); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("second use: %v, want ErrConflict", err)
	}

	// DeleteUserTokens takes only that user's tokens of that kind.
	for _, tk := range []domain.OneTimeToken{
		{Hash: "tok-2", Kind: domain.TokenPasswordReset, UserID: u.ID},
		{Hash: "tok-mfa", Kind: domain.TokenMFALogin, UserID: u.ID},
		{Hash: "tok-tutor", Kind: domain.TokenPasswordReset, UserID: tutor.ID},
	} {
		tk.CreatedAt, tk.ExpiresAt = t0, t0.Add(time.Hour)
		if err := s.CreateToken(ctx, tk); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteUserTokens(ctx, u.ID, domain.TokenPasswordReset); err != nil {
		t.Fatal(err)
	}
	for h, want := range map[string]bool{"tok-1": false, "tok-2": false, "tok-mfa": true, "tok-tutor": true} {
		if _, err := s.GetToken(ctx, h); (err == nil) != want {
			t.Fatalf("after DeleteUserTokens, %s exists = %v (%v), want %v", h, err == nil, err, want)
		}
	}

	// The sweep deletes expired tokens only.
	if err := s.CreateToken(ctx, domain.OneTimeToken{Hash: "tok-old", Kind: domain.TokenMFALogin, UserID: u.ID, CreatedAt: t0.Add(-time.Hour), ExpiresAt: t0}); err != nil {
		t.Fatal(err)
	}
	if n, err := s.DeleteExpiredTokens(ctx, t0); err != nil || n != 1 {
		t.Fatalf("DeleteExpiredTokens = %d, %v; want 1", n, err)
	}
	if _, err := s.GetToken(ctx, "tok-mfa"); err != nil {
		t.Fatalf("the sweep took a live token: %v", err)
	}
}

// testMFA: a second factor is stored whole and replaced whole; a TOTP step
// and a recovery code are each accepted once, also under a race.
func testMFA(t *testing.T, s store.Store) {
	u := mustUser(t, s, "totp@utpl.edu.ec", domain.RoleTutor)
	if _, err := s.GetMFA(ctx, u.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("GetMFA before enrolment: %v", err)
	}
	if err := s.UseTOTPStep(ctx, u.ID, 10); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("UseTOTPStep without MFA: %v", err)
	}
	pending := domain.MFA{UserID: u.ID, Secret: "JBSWY3DPEHPK3PXP"}
	if err := s.PutMFA(ctx, pending); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetMFA(ctx, u.ID); err != nil || got.Secret != pending.Secret || got.Enabled() || len(got.RecoveryCodes) != 0 {
		t.Fatalf("pending MFA = %+v, %v", got, err)
	}
	t0 := now()
	var codes []domain.RecoveryCode
	for i := range 10 {
		codes = append(codes, domain.RecoveryCode{Hash: fmt.Sprintf("code-%02d", i)})
	}
	enabled := domain.MFA{UserID: u.ID, Secret: "KRSXG5CTMVRXEZLU", EnabledAt: &t0, LastStep: 5, RecoveryCodes: codes}
	if err := s.PutMFA(ctx, enabled); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetMFA(ctx, u.ID)
	if err != nil || got.Secret != enabled.Secret || !got.Enabled() || !got.EnabledAt.Equal(t0) || got.LastStep != 5 ||
		len(got.RecoveryCodes) != 10 || got.RecoveryCodesLeft() != 10 || got.RecoveryCodes[3].Hash != "code-03" {
		t.Fatalf("GetMFA = %+v, %v; want %+v", got, err, enabled)
	}

	if err := s.UseTOTPStep(ctx, u.ID, 5); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("step 5 again: %v, want ErrConflict", err)
	}
	onlyOneSucceeds(t, "UseTOTPStep(7)", raceN(func(int) error { return s.UseTOTPStep(ctx, u.ID, 7) }), domain.ErrConflict)
	if err := s.UseTOTPStep(ctx, u.ID, 6); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("an earlier step after 7: %v, want ErrConflict", err)
	}
	if got, _ := s.GetMFA(ctx, u.ID); got.LastStep != 7 {
		t.Fatalf("last step = %d, want 7", got.LastStep)
	}

	at := t0.Add(time.Minute)
	onlyOneSucceeds(t, "UseRecoveryCode", raceN(func(int) error { return s.UseRecoveryCode(ctx, u.ID, "code-04", at) }), domain.ErrNotFound)
	if err := s.UseRecoveryCode(ctx, u.ID, "code-04", at); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a used code again: %v", err)
	}
	if err := s.UseRecoveryCode(ctx, u.ID, "no-such-code", at); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("an unknown code: %v", err)
	}
	other := mustUser(t, s, "otro.totp@utpl.edu.ec", domain.RoleTutor)
	if err := s.UseRecoveryCode(ctx, other.ID, "code-05", at); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("another user's code: %v", err)
	}
	got, _ = s.GetMFA(ctx, u.ID)
	if got.RecoveryCodesLeft() != 9 || got.RecoveryCodes[4].UsedAt == nil || !got.RecoveryCodes[4].UsedAt.Equal(at) {
		t.Fatalf("after one code: %+v", got)
	}

	// Enrolling again replaces the codes.
	if err := s.PutMFA(ctx, domain.MFA{UserID: u.ID, Secret: "NEW", EnabledAt: &t0, RecoveryCodes: []domain.RecoveryCode{{Hash: "fresh"}}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetMFA(ctx, u.ID); len(got.RecoveryCodes) != 1 || got.RecoveryCodes[0].Hash != "fresh" || got.LastStep != 0 {
		t.Fatalf("replaced MFA = %+v", got)
	}
	if err := s.DeleteMFA(ctx, u.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetMFA(ctx, u.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("after DeleteMFA: %v", err)
	}
	if err := s.DeleteMFA(ctx, u.ID); err != nil {
		t.Fatalf("DeleteMFA of nothing: %v", err)
	}
	// Inside a transaction, as enrolment and sign-in use it.
	err = s.InTx(ctx, func(tx store.Store) error {
		if err := tx.PutMFA(ctx, enabled); err != nil {
			return err
		}
		m, err := tx.GetMFA(ctx, u.ID)
		if err != nil || len(m.RecoveryCodes) != 10 {
			return fmt.Errorf("read own write: %+v, %v", m, err)
		}
		return tx.UseRecoveryCode(ctx, u.ID, "code-09", at)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetMFA(ctx, u.ID); got.RecoveryCodesLeft() != 9 {
		t.Fatalf("after the transaction: %+v", got)
	}
}
