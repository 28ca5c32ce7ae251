package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// argon2id parameters: OWASP's minimum recommendation (19 MiB, 2 passes),
// which keeps a sign-in under ~50 ms on the small machines this runs on.
const (
	argonMemory  = 19 * 1024
	argonTime    = 2
	argonThreads = 1
	argonKeyLen  = 32
	saltLen      = 16
)

// HashPassword returns an argon2id hash, in the PHC string format, of the
// password's NFKC form.
func HashPassword(password string) (string, error) {
	return hashRaw(NormalizePassword(password))
}

func hashRaw(password string) (string, error) {
	salt := make([]byte, saltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

var errBadHash = errors.New("malformed password hash")

// VerifyPassword reports whether password matches the PHC-encoded hash,
// comparing in constant time. It honours the parameters stored in the hash so
// they can be raised later without invalidating old hashes. The password's
// NFKC form is checked; when that differs from what was typed, the typed
// form is checked too, so a hash made before passwords were normalised
// (of a password with full-width letters or ligatures, say) still verifies.
// Whether the account exists plays no part in how many checks are made.
func VerifyPassword(encoded, password string) (bool, error) {
	nfkc := NormalizePassword(password)
	ok, err := verifyRaw(encoded, nfkc)
	if ok || err != nil || nfkc == password {
		return ok, err
	}
	return verifyRaw(encoded, password)
}

func verifyRaw(encoded, password string) (bool, error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false, errBadHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false, errBadHash
	}
	var mem, iters uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iters, &threads); err != nil {
		return false, errBadHash
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false, errBadHash
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false, errBadHash
	}
	got := argon2.IDKey([]byte(password), salt, iters, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1, nil
}

// dummyHash is verified against when the account does not exist, so that a
// wrong email and a wrong password take the same time.
var dummyHash = func() string {
	h, err := hashRaw("not-a-real-password")
	if err != nil {
		panic(err)
	}
	return h
}()
