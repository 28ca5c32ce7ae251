package auth

import (
	"context"
	"errors"
	"net/netip"
	"time"

	"github.com/utpl/simulador/backend/internal/store"
)

// The sign-in throttle's allowances (docs/security.md, "Sign-in
// throttling"): failures within the window before the key waits 30 s,
// doubling with each further failure up to 15 minutes.
const (
	// One account from one address: a guesser at one place.
	pairFailures = 5
	// One account from anywhere: past this the account is under attack
	// and only addresses with a clean history may try it.
	accountFailures = 20
	// One address on any account: spraying one password over many
	// accounts. High, because a campus NAT shares it; only failures count.
	addressFailures = 100
	// One IPv6 /48 on any account: a /48 holds 65,536 /64s and is handed
	// out whole (tunnel brokers give one away), so the /64s of one are
	// also counted together. Three campuses' worth of failures.
	networkFailures = 300

	throttleWindow = 15 * time.Minute
)

// signInThrottle decides, before a password is checked, whether a sign-in
// may be checked at all, and counts the outcome. Three counts, all in the
// store (shared by every instance):
//
//   - the pair (account, address) counts failures and attempts in flight
//     (Throttle.Reserve): past its allowance that address waits for that
//     account; nobody else does. A success forgets the pair's failures.
//   - the account counts failures from every address, after the fact
//     (Throttle.Fail). Past its allowance the account is under attack:
//     an address with anything counted on the pair is refused, an address
//     with a clean history still gets its check, so the owner signing in
//     from anywhere else is never refused because of someone else's
//     failures.
//   - the address counts failures on every account, after the fact:
//     successes never count, so any number of people behind one address
//     with right passwords sign in. Past its allowance everyone at that
//     address waits.
//
// An IPv6 client is counted by its /64 for the address count, and by its
// /48 for the pair and for a fourth count, the network (a /48's failures
// on every account, past networkFailures everyone in it waits): one
// subscriber's /48 is one place, not 65,536.
//
// A browser that signed in to the account before (it shows a device token
// of the account, device.go) is a known device: it is counted on a pair of
// its own (the token and the account, pairFailures), and neither the
// address, the network nor the account being under attack refuses it, so
// someone else's failures from the same campus address never lock the
// owner out. Its failures count on the account, not on the address.
//
// A refused attempt costs no password check.
type signInThrottle struct {
	pairs, accounts, addresses, networks *Throttle
}

func newSignInThrottle(counters store.Counters) *signInThrottle {
	return &signInThrottle{
		pairs:     NewThrottle(counters, pairFailures, throttleWindow),
		accounts:  NewThrottle(counters, accountFailures, throttleWindow),
		addresses: NewThrottle(counters, addressFailures, throttleWindow),
		networks:  NewThrottle(counters, networkFailures, throttleWindow),
	}
}

// refusal is why an attempt was not let through: which count (the
// scope of the auth.login.throttled event) and how long to wait.
type refusal struct {
	scope string // "pair", "account", "address", "network" or "device"
	wait  time.Duration
}

// signInAttempt is a sign-in let through: its outcome must be reported
// once (failed, succeeded or abandoned).
type signInAttempt struct {
	t                               *signInThrottle
	pair, account, address, network string // network is "" for IPv4
	knownDevice                     bool
	reserved                        *Attempt
}

// addressKey is the address a client is counted under: an IPv4 address
// as it is, an IPv6 address by its /64 (one subscriber's network, whose
// other addresses cost nothing to use).
func addressKey(ip string) string { return prefixKey(ip, 64) }

// networkKey is the IPv6 /48 a client is in ("" for IPv4: a NAT already
// puts many people behind one IPv4 address).
func networkKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil || a.Unmap().Is4() {
		return ""
	}
	return prefixKey(ip, 48)
}

// prefixKey is an IPv4 address as it is, an IPv6 address by its prefix
// of bits.
func prefixKey(ip string, bits int) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, _ := a.WithZone("").Prefix(bits)
	return p.String()
}

// admit lets a sign-in of email from ip through to the password check, or
// says why not. Refusals are decided on reads (a flood against a waiting
// key costs no store transaction); a sign-in let through is one
// transaction, the pair's count.
//
// device is the id of the client's device token when it is a known device
// of this account ("" otherwise).
func (t *signInThrottle) admit(ctx context.Context, email, ip, device string) (*signInAttempt, refusal, error) {
	address := addressKey(ip)
	a := &signInAttempt{t: t, pair: "pair:" + prefixKey(ip, 48) + "|" + email, account: "mail:" + email, address: "ip:" + address}
	if n := networkKey(ip); n != "" {
		a.network = "net:" + n
	}
	if device != "" {
		a.knownDevice = true
		a.pair = "pair:device:" + device + "|" + email
		reserved, wait, err := t.pairs.Reserve(ctx, a.pair)
		if err != nil || wait > 0 {
			return nil, refusal{"device", wait}, err
		}
		a.reserved = reserved
		return a, refusal{}, nil
	}
	if wait, err := t.addresses.Wait(ctx, a.address); err != nil || wait > 0 {
		return nil, refusal{"address", wait}, err
	}
	if a.network != "" {
		if wait, err := t.networks.Wait(ctx, a.network); err != nil || wait > 0 {
			return nil, refusal{"network", wait}, err
		}
	}
	underAttack, err := t.accounts.Wait(ctx, a.account)
	if err != nil {
		return nil, refusal{}, err
	}
	if underAttack > 0 {
		if n, err := t.pairs.Counted(ctx, a.pair); err != nil || n > 0 {
			return nil, refusal{"account", underAttack}, err
		}
	}
	reserved, wait, err := t.pairs.Reserve(ctx, a.pair)
	if err != nil || wait > 0 {
		return nil, refusal{"pair", wait}, err
	}
	if underAttack > 0 && reserved.Earlier() > 0 { // another attempt of the pair got in first
		return nil, refusal{"account", underAttack}, reserved.Cancel(ctx)
	}
	a.reserved = reserved
	return a, refusal{}, nil
}

// recheck asks again, just before the password is checked: failures
// counted while this attempt waited for a hashing slot may have used up
// the address's allowance or put the account under attack. That bounds
// how far a burst of parallel guesses overshoots an allowance: by the
// password checks running at once, not by the requests queued.
func (a *signInAttempt) recheck(ctx context.Context) (refusal, error) {
	if a.knownDevice {
		return refusal{}, nil
	}
	if wait, err := a.t.addresses.Wait(ctx, a.address); err != nil || wait > 0 {
		return refusal{"address", wait}, err
	}
	if a.reserved.Earlier() == 0 {
		return refusal{}, nil
	}
	wait, err := a.t.accounts.Wait(ctx, a.account)
	return refusal{"account", wait}, err
}

// failed counts a wrong password: the pair's count stays, and the account
// and the address count one failure more.
func (a *signInAttempt) failed(ctx context.Context) error {
	if a.knownDevice { // the owner's typo, or a stolen token: its pair counts it
		return a.t.accounts.Fail(ctx, a.account)
	}
	errs := []error{a.t.accounts.Fail(ctx, a.account), a.t.addresses.Fail(ctx, a.address)}
	if a.network != "" {
		errs = append(errs, a.t.networks.Fail(ctx, a.network))
	}
	return errors.Join(errs...)
}

// succeeded forgets the pair's failures: the owner proved who they are
// from this address. The account's and the address's failures stay (they
// may be someone else's).
func (a *signInAttempt) succeeded(ctx context.Context) error {
	return a.t.pairs.Reset(ctx, a.pair)
}

// abandoned gives the attempt back: it ended without a verdict on the
// password (the store failed, the request ended, a rule refused it).
func (a *signInAttempt) abandoned(ctx context.Context) error {
	return a.reserved.Cancel(ctx)
}
