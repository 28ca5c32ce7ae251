package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// A device token is handed to a browser whose password sign-in succeeded,
// for that account only. Shown again with a sign-in of the same account,
// it makes the browser a known device: the sign-in throttle counts it on
// its own and never refuses it because of failures from its address, its
// network or on its account (signin_throttle.go), and its password check
// has a hashing lane of its own. So an attacker who shares the owner's
// campus address, or floods the server, cannot keep the owner out of an
// account the owner used before from that browser.
//
// It is a random value; the store keeps only its hash, with the account,
// as a counter that expires (no table of its own). It proves nothing
// about who signs in: the password is still checked.
const (
	deviceLifetime = 90 * 24 * time.Hour
	deviceTokenMax = 64 // longer values are not ours and are not looked up
)

func deviceCounterKey(token, email string) (key, id string) {
	sum := sha256.Sum256([]byte(token))
	id = hex.EncodeToString(sum[:12])
	return "device:" + id + "|" + email, id
}

// knownDevice returns the id of token when it is a device token of email
// still valid, "" otherwise.
func (s *Service) knownDevice(ctx context.Context, token, email string) (string, error) {
	if token == "" || len(token) > deviceTokenMax {
		return "", nil
	}
	key, id := deviceCounterKey(token, email)
	c, err := s.store.GetCounter(ctx, key, s.now().UTC().Truncate(time.Millisecond))
	if err != nil || c.Count == 0 {
		return "", err
	}
	return id, nil
}

// RememberDevice returns the device token for email's account a browser
// keeps after its password sign-in succeeded: the one it presented, when
// still valid, or a new one. An account gets at most deviceIssueMax new
// tokens a day (each is a row in the store for 90 days); past that the
// sign-in succeeds without one ("").
func (s *Service) RememberDevice(ctx context.Context, email, presented string) (string, error) {
	email = domain.NormalizeEmail(email)
	if id, err := s.knownDevice(ctx, presented, email); err != nil || id != "" {
		return presented, err
	}
	if err := s.check(ctx, limitDeviceIssue, email); err != nil {
		if errors.Is(err, domain.ErrTooManyRequests) {
			return "", nil
		}
		return "", err
	}
	token, err := newNonce()
	if err != nil {
		return "", err
	}
	key, _ := deviceCounterKey(token, email)
	now := s.now().UTC().Truncate(time.Millisecond)
	_, err = s.store.UpdateCounter(context.WithoutCancel(ctx), key, now, func(store.Counter) store.Counter {
		return store.Counter{Count: 1, Start: now, ExpiresAt: now.Add(deviceLifetime)}
	})
	return token, err
}
