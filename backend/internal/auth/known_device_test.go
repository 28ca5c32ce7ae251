package auth

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// signInFrom is signIn from a browser that shows device.
func (f *throttleFixture) signInFrom(email, password, ip, device string) string {
	_, err := f.s.LoginPasswordFrom(context.Background(), email, password, SignInClient{IP: ip, Device: device})
	if ue := (*domain.UserError)(nil); errors.As(err, &ue) {
		return ue.Code
	} else if err != nil {
		f.t.Fatalf("sign-in: %v", err)
	}
	return "ok"
}

// S3-06: behind one campus address, a classmate's five guesses on the
// owner's account and a hundred failures on made-up accounts refuse
// every browser there without a device token, but never the owner's
// browser that signed in to the account before.
func TestS306AKnownDeviceSignsInWhileOthersGuessFromItsAddress(t *testing.T) {
	f := newThrottleFixture(t)
	users := f.users("campus", 2)
	owner, classmate := users[0], users[1]
	const nat = "200.0.113.4"
	if code := f.signInFrom(owner, goodPassword, nat, ""); code != "ok" {
		t.Fatalf("first sign-in: %s", code)
	}
	device, err := f.s.RememberDevice(context.Background(), owner, "")
	if err != nil {
		t.Fatal(err)
	}
	classmatesDevice, err := f.s.RememberDevice(context.Background(), classmate, "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range pairFailures {
		if code := f.signInFrom(owner, fmt.Sprintf("adivina-%d", i), nat, ""); code != CodeInvalidCredentials {
			t.Fatalf("guess %d: %s", i+1, code)
		}
	}
	for i := range addressFailures - pairFailures { // the address's allowance, with the guesses
		if code := f.signInFrom(fmt.Sprintf("inventado.%d@utpl.edu.ec", i), "Verano2026", nat, ""); code != CodeInvalidCredentials {
			t.Fatalf("made-up account %d: %s", i+1, code)
		}
	}
	if code := f.signInFrom(owner, goodPassword, nat, ""); code != CodeTooManyAttempts {
		t.Fatalf("a browser the account never used, at the address: %s, want %s", code, CodeTooManyAttempts)
	}
	if code := f.signInFrom(owner, goodPassword, nat, classmatesDevice); code != CodeTooManyAttempts {
		t.Fatalf("another account's device token: %s, want %s", code, CodeTooManyAttempts)
	}
	if code := f.signInFrom(owner, goodPassword, nat, device); code != "ok" {
		t.Fatalf("the owner's browser: %s, want ok", code)
	}
	// A stolen token is worth the pair allowance of its own, no more.
	for i := range pairFailures {
		if code := f.signInFrom(owner, fmt.Sprintf("robado-%d", i), nat, device); code != CodeInvalidCredentials {
			t.Fatalf("guess %d with the token: %s", i+1, code)
		}
	}
	if code := f.signInFrom(owner, goodPassword, nat, device); code != CodeTooManyAttempts {
		t.Fatalf("the token past its own allowance: %s", code)
	}
}

// S3-09: one IPv6 /48 is one place. Its /64s share the pair with the
// account (five guesses, then waits), and together past networkFailures
// failures on any account everyone in the /48 without a device token
// waits; another /48 does not.
func TestS309OneIPv6Slash48IsCountedTogether(t *testing.T) {
	f := newThrottleFixture(t)
	tutor := f.users("tutor", 1)[0]
	checked := 0
	for i := range 300 {
		code := f.signInFrom(tutor, fmt.Sprintf("adivina-%d", i), fmt.Sprintf("2001:db8:77:%x::1", i), "")
		if code == CodeInvalidCredentials {
			checked++
		}
	}
	if checked > pairFailures {
		t.Fatalf("300 guesses from 300 /64s of one /48: %d checked, want at most %d", checked, pairFailures)
	}

	g := newThrottleFixture(t)
	real := g.users("real", 1)[0]
	for i := range networkFailures {
		if code := g.signInFrom(fmt.Sprintf("rociado.%d@utpl.edu.ec", i), "Verano2026", fmt.Sprintf("2001:db8:88:%x::1", i), ""); code != CodeInvalidCredentials {
			t.Fatalf("failure %d: %s", i+1, code)
		}
	}
	if code := g.signInFrom(real, goodPassword, "2001:db8:88:ffff::1", ""); code != CodeTooManyAttempts {
		t.Fatalf("a clean /64 of the /48 past its allowance: %s, want %s", code, CodeTooManyAttempts)
	}
	if code := g.signInFrom(real, goodPassword, "2001:db8:99::1", ""); code != "ok" {
		t.Fatalf("another /48: %s", code)
	}
}

// S3-08: a sign-in for an account with no password (made up, or
// Microsoft only) takes no hashing slot, so a flood of them never keeps a
// real sign-in from its check; and a known device has a lane of its own,
// free while every common slot is taken.
func TestS308MadeUpAccountsTakeNoHashingSlot(t *testing.T) {
	f := newThrottleFixture(t)
	owner := f.users("owner", 1)[0]
	device, err := f.s.RememberDevice(context.Background(), owner, "")
	if err != nil {
		t.Fatal(err)
	}
	// Every common slot is taken (by a flood of checks that never end).
	for range cap(f.s.hashing.slots) {
		f.s.hashing.slots <- struct{}{}
	}
	answer := func(email, password, device string) string {
		done := make(chan string, 1)
		go func() { done <- f.signInFrom(email, password, "198.51.100.30", device) }()
		select {
		case code := <-done:
			return code
		case <-time.After(20 * time.Second): // a deadline, not a measurement: it waits for a slot
			return "waited for a hashing slot"
		}
	}
	for i := range 20 {
		if code := answer(fmt.Sprintf("inventado.%d@utpl.edu.ec", i), "Verano2026", ""); code != CodeInvalidCredentials {
			t.Fatalf("made-up account %d with every slot taken: %s", i, code)
		}
	}
	if code := answer(owner, goodPassword, device); code != "ok" {
		t.Fatalf("the owner's known browser with every common slot taken: %s", code)
	}
	if f.checks.Load() != 1 {
		t.Fatalf("%d password checks, want 1 (the owner's)", f.checks.Load())
	}
}

// A browser that shows its valid token keeps it (no new row), and one
// account gets at most limitDeviceIssue.max new tokens a day.
func TestDeviceTokensAreReusedAndBounded(t *testing.T) {
	f := newThrottleFixture(t)
	owner := f.users("owner", 1)[0]
	ctx := context.Background()
	first, err := f.s.RememberDevice(ctx, owner, "")
	if err != nil || first == "" {
		t.Fatalf("first token: %q %v", first, err)
	}
	if again, err := f.s.RememberDevice(ctx, owner, first); err != nil || again != first {
		t.Fatalf("a browser showing its valid token got %q (%v), want the same token", again, err)
	}
	for i := 1; i < limitDeviceIssue.max; i++ {
		if tok, err := f.s.RememberDevice(ctx, owner, "otro-navegador"); err != nil || tok == "" {
			t.Fatalf("token %d: %q %v", i+1, tok, err)
		}
	}
	if tok, err := f.s.RememberDevice(ctx, owner, ""); err != nil || tok != "" {
		t.Fatalf("past the day's allowance: %q %v, want no token", tok, err)
	}
}
