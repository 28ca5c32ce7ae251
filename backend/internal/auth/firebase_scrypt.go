package auth

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/scrypt"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// Passwords imported from Firebase Authentication (simulador users
// import-firebase) keep the hash Firebase made, with the project's
// parameters, until the user's first successful sign-in verifies it and
// replaces it with an argon2id hash. Firebase's algorithm is a modified
// scrypt: scrypt(password, salt+separator, N=2^memCost, r=rounds, p=1,
// 32 bytes) is the key of AES-256-CTR (zero IV) over the project's signer
// key; the ciphertext is the hash.
//
// The credential is one string in the place of the argon2id hash, so every
// store keeps it without a schema change and migrate-data moves it:
//
//	$firebase-scrypt$r=8,m=14$SEPARATOR$SALT$SIGNER_KEY$HASH  (base64, no padding)
//
// The signer key travels with each credential because the server needs it
// to verify; it is worth no more than the hashes it signs (whoever holds
// both can only try passwords against them, at scrypt's cost), and it
// disappears with the user's first sign-in.
//
// An account Firebase had disabled is imported with its credential behind
// "$disabled$": no password (not even the right one) and no Microsoft
// account signs it in, as in the earlier app.

const (
	firebaseScryptPrefix = "$firebase-scrypt$"
	disabledPrefix       = "$disabled$"
	// FirebaseImportMeta is the meta key import-firebase sets ("r=8,m=14")
	// once credentials were imported: from then on every password check
	// costs an argon2id and a scrypt computation, whichever the account
	// has, so the time of an answer does not tell imported accounts apart.
	FirebaseImportMeta = "auth_firebase_scrypt"
)

// FirebaseScryptParams are a Firebase project's password hash parameters
// (Authentication > Users > ⋮ > Password hash parameters).
type FirebaseScryptParams struct {
	SignerKey     []byte
	SaltSeparator []byte
	Rounds        int // scrypt's r
	MemCost       int // log2 of scrypt's N
}

// Validate refuses parameters Firebase never produces.
func (p FirebaseScryptParams) Validate() error {
	switch {
	case len(p.SignerKey) == 0:
		return errors.New("the hash key (base64_signer_key) is empty")
	case p.Rounds < 1 || p.Rounds > 8:
		return fmt.Errorf("rounds must be between 1 and 8 (Firebase's are 8), not %d", p.Rounds)
	case p.MemCost < 1 || p.MemCost > 14:
		return fmt.Errorf("mem-cost must be between 1 and 14 (Firebase's are 14), not %d", p.MemCost)
	}
	return nil
}

// Tag is the parameters' cost, as the meta record keeps it.
func (p FirebaseScryptParams) Tag() string { return fmt.Sprintf("r=%d,m=%d", p.Rounds, p.MemCost) }

// FirebaseScryptHash computes Firebase's hash of password with salt.
func FirebaseScryptHash(p FirebaseScryptParams, salt []byte, password string) ([]byte, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	full := make([]byte, 0, len(salt)+len(p.SaltSeparator))
	full = append(append(full, salt...), p.SaltSeparator...)
	key, err := scrypt.Key([]byte(password), full, 1<<p.MemCost, p.Rounds, 1, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	out := make([]byte, len(p.SignerKey))
	cipher.NewCTR(block, make([]byte, aes.BlockSize)).XORKeyStream(out, p.SignerKey)
	return out, nil
}

// FirebaseCredential encodes an imported hash with what verifies it.
func FirebaseCredential(p FirebaseScryptParams, salt, hash []byte) string {
	b := base64.RawStdEncoding
	return fmt.Sprintf("%s%s$%s$%s$%s$%s", firebaseScryptPrefix, p.Tag(), b.EncodeToString(p.SaltSeparator),
		b.EncodeToString(salt), b.EncodeToString(p.SignerKey), b.EncodeToString(hash))
}

// DisabledCredential is the credential of an account the earlier app had
// disabled (inner is its password credential, or "").
func DisabledCredential(inner string) string { return disabledPrefix + inner }

// IsDisabledCredential reports whether a stored credential is a disabled
// account's.
func IsDisabledCredential(stored string) bool { return strings.HasPrefix(stored, disabledPrefix) }

// IsFirebaseCredential reports whether a stored credential is an imported
// Firebase hash, not yet replaced.
func IsFirebaseCredential(stored string) bool { return strings.HasPrefix(stored, firebaseScryptPrefix) }

type firebaseCredential struct {
	params FirebaseScryptParams
	salt   []byte
	hash   []byte
}

func parseFirebaseCredential(stored string) (firebaseCredential, error) {
	parts := strings.Split(strings.TrimPrefix(stored, firebaseScryptPrefix), "$")
	if !IsFirebaseCredential(stored) || len(parts) != 5 {
		return firebaseCredential{}, errBadHash
	}
	var c firebaseCredential
	if _, err := fmt.Sscanf(parts[0], "r=%d,m=%d", &c.params.Rounds, &c.params.MemCost); err != nil {
		return c, errBadHash
	}
	b := base64.RawStdEncoding
	var err error
	for i, dst := range []*[]byte{&c.params.SaltSeparator, &c.salt, &c.params.SignerKey, &c.hash} {
		if *dst, err = b.DecodeString(parts[i+1]); err != nil {
			return c, errBadHash
		}
	}
	if c.params.Validate() != nil || len(c.hash) == 0 {
		return c, errBadHash
	}
	return c, nil
}

// verifyFirebaseScrypt checks password against an imported credential in
// constant time. The password is checked as typed: Firebase hashed it so.
func verifyFirebaseScrypt(stored, password string) (bool, error) {
	c, err := parseFirebaseCredential(stored)
	if err != nil {
		return false, err
	}
	got, err := FirebaseScryptHash(c.params, c.salt, password)
	if err != nil {
		return false, err
	}
	return subtle.ConstantTimeCompare(got, c.hash) == 1, nil
}

// dummyFirebaseCredential has the imported accounts' cost and a random
// key: verified against when the account checked is not an imported one.
func dummyFirebaseCredential(tag string) string {
	var p FirebaseScryptParams
	if _, err := fmt.Sscanf(tag, "r=%d,m=%d", &p.Rounds, &p.MemCost); err != nil || p.Validate() != nil {
		p.Rounds, p.MemCost = 8, 14 // Firebase's usual parameters
	}
	p.SignerKey, p.SaltSeparator = make([]byte, 64), []byte{7}
	salt := make([]byte, 12)
	_, _ = rand.Read(p.SignerKey)
	_, _ = rand.Read(salt)
	return FirebaseCredential(p, salt, make([]byte, 64))
}

// importedCost remembers whether this installation holds imported
// Firebase credentials (the meta record import-firebase sets) and the
// dummy credential with their cost. The record is read again in the
// background when what is known is older than a minute, so no sign-in
// waits for the store while it holds a hashing slot.
type importedCost struct {
	refreshing sync.Mutex
	mu         sync.Mutex
	checked    time.Time
	dummy      string // "" when nothing was imported
}

func (c *importedCost) dummyFor(ctx context.Context, st store.Store, now time.Time) string {
	c.mu.Lock()
	dummy, fresh := c.dummy, !c.checked.IsZero() && now.Sub(c.checked) < time.Minute
	c.mu.Unlock()
	if !fresh && c.refreshing.TryLock() {
		go func() {
			defer c.refreshing.Unlock()
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			defer cancel()
			c.refresh(rctx, st, now)
		}()
	}
	return dummy
}

func (c *importedCost) refresh(ctx context.Context, st store.Store, now time.Time) {
	tag, err := st.GetMeta(ctx, FirebaseImportMeta)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case err == nil:
		if c.dummy == "" || !strings.Contains(c.dummy, "$"+tag+"$") {
			c.dummy = dummyFirebaseCredential(tag)
		}
	case errors.Is(err, domain.ErrNotFound):
		c.dummy = ""
	default:
		return // keep what was known; a later sign-in reads again
	}
	c.checked = now
}

// checkPassword verifies password against a stored credential of any kind
// (an argon2id hash, an imported Firebase hash, a disabled account's) with
// the same work for each: one argon2id computation and, once credentials
// were imported, one scrypt computation, each against a dummy when the
// account has the other kind. A disabled account never matches.
func (s *Service) checkPassword(ctx context.Context, stored, password string) (bool, error) {
	disabled := IsDisabledCredential(stored)
	if disabled {
		stored = strings.TrimPrefix(stored, disabledPrefix)
	}
	dummyScrypt := s.imported.dummyFor(ctx, s.store, s.now())
	var ok bool
	var err error
	if IsFirebaseCredential(stored) {
		if ok, err = verifyFirebaseScrypt(stored, password); err != nil {
			return false, err
		}
		_, _ = s.verify(dummyHash, password)
	} else {
		argon := stored
		if argon == "" {
			argon = dummyHash
		}
		if ok, err = s.verify(argon, password); err != nil {
			return false, err
		}
		if dummyScrypt != "" {
			_, _ = verifyFirebaseScrypt(dummyScrypt, password)
		}
	}
	return ok && !disabled, nil
}

// upgradeImported replaces u's imported Firebase credential, which
// password has just matched, by an argon2id hash; unless the credential
// changed meanwhile (a reset), which then stands.
func (s *Service) upgradeImported(ctx context.Context, u domain.User, stored, password string) error {
	if !IsFirebaseCredential(stored) {
		return nil
	}
	hash, err := HashPassword(password)
	if err != nil {
		return err
	}
	replaced := false
	err = s.store.InTx(ctx, func(tx store.Store) error {
		replaced = false
		cur, err := tx.PasswordHash(ctx, u.ID)
		if err != nil || cur != stored {
			return err
		}
		replaced = true
		return tx.SetPasswordHash(ctx, u.ID, hash)
	})
	if err == nil && replaced {
		audit.Info(ctx, s.log, "auth.password.rehashed", slog.String("userId", u.ID), slog.String("from", "firebase-scrypt"))
	}
	return err
}

// refuseDisabled refuses any sign-in of an account the earlier app had
// disabled, whatever the method.
func (s *Service) refuseDisabled(ctx context.Context, u domain.User, method string) error {
	stored, err := s.store.PasswordHash(ctx, u.ID)
	if err != nil || !IsDisabledCredential(stored) {
		return err
	}
	audit.Info(ctx, s.log, "auth.login.refused", slog.String("userId", u.ID), slog.String("method", method), slog.String("reason", CodeAccountDisabled))
	return &domain.UserError{Kind: domain.ErrForbidden, Code: CodeAccountDisabled,
		Message: "Su cuenta está deshabilitada. Consulte al administrador."}
}

// CodeAccountDisabled refuses a sign-in of an account the earlier app had
// disabled.
const CodeAccountDisabled = "account_disabled"
