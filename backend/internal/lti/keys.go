package lti

import (
	"context"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// keyBits is the size of the tool's RSA keys.
const keyBits = 2048

// RetiredKeyGrace is how long a retired key stays published: longer than
// any token it signed lives (client assertions and deep-linking responses
// expire after tokenLifetime), with room for a platform that caches the
// key set.
const RetiredKeyGrace = time.Hour

// tokenLifetime is the lifetime of the JWTs the tool signs.
const tokenLifetime = 5 * time.Minute

// keyCacheFor is how long a process trusts its copy of the keys: a
// rotation from the terminal (another process) is picked up within it.
const keyCacheFor = time.Minute

// Keys holds the tool's signing keys. They live in the store (the private
// key as PKCS #8 PEM, readable by whoever can read the database, never
// through the API); the public halves are published at /lti/jwks.
type Keys struct {
	store store.Store
	now   func() time.Time

	mu      sync.Mutex
	loaded  time.Time
	current *signingKey
	public  []jose.JSONWebKey
}

type signingKey struct {
	id  string
	key *rsa.PrivateKey
}

func newKeys(s store.Store, now func() time.Time) *Keys { return &Keys{store: s, now: now} }

// Ensure makes sure a current key exists, creating the first one.
func (k *Keys) Ensure(ctx context.Context) error {
	cur, err := k.signer(ctx)
	if err != nil {
		return err
	}
	if cur != nil {
		return nil
	}
	_, err = k.Rotate(ctx)
	return err
}

// Rotate creates a new key, which signs from now on; the previous one is
// retired and stays published for RetiredKeyGrace. It returns the new
// key's id.
func (k *Keys) Rotate(ctx context.Context) (string, error) {
	priv, err := rsa.GenerateKey(rand.Reader, keyBits)
	if err != nil {
		return "", err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return "", err
	}
	id, err := thumbprint(&priv.PublicKey)
	if err != nil {
		return "", err
	}
	now := k.now().UTC()
	rec := domain.LTIKey{ID: id, PrivateKeyPEM: string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), CreatedAt: now}
	if err := k.store.AddLTIKey(ctx, rec, now); err != nil {
		return "", fmt.Errorf("store the new key: %w", err)
	}
	k.mu.Lock()
	k.loaded = time.Time{}
	k.mu.Unlock()
	return id, nil
}

// thumbprint is the key id: the RFC 7638 thumbprint of the public key.
func thumbprint(pub *rsa.PublicKey) (string, error) {
	sum, err := (&jose.JSONWebKey{Key: pub}).Thumbprint(crypto.SHA256)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(sum), nil
}

// load refreshes the cached keys when they are older than keyCacheFor.
func (k *Keys) load(ctx context.Context) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	now := k.now()
	if !k.loaded.IsZero() && now.Sub(k.loaded) < keyCacheFor {
		return nil
	}
	list, err := k.store.ListLTIKeys(ctx)
	if err != nil {
		return err
	}
	var current *signingKey
	public := []jose.JSONWebKey{}
	for _, rec := range list {
		if rec.RetiredAt != nil && now.Sub(*rec.RetiredAt) > RetiredKeyGrace {
			continue
		}
		priv, err := parseKey(rec.PrivateKeyPEM)
		if err != nil {
			return fmt.Errorf("key %s: %w", rec.ID, err)
		}
		public = append(public, jose.JSONWebKey{Key: &priv.PublicKey, KeyID: rec.ID, Algorithm: string(jose.RS256), Use: "sig"})
		if rec.RetiredAt == nil && current == nil { // the list is newest first
			current = &signingKey{id: rec.ID, key: priv}
		}
	}
	k.current, k.public, k.loaded = current, public, now
	return nil
}

func parseKey(pemText string) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode([]byte(pemText))
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, err
	}
	priv, ok := key.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("not an RSA key")
	}
	return priv, nil
}

func (k *Keys) signer(ctx context.Context) (*signingKey, error) {
	if err := k.load(ctx); err != nil {
		return nil, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.current, nil
}

// JWKS is the public key set: the current key and those retired less
// than RetiredKeyGrace ago.
func (k *Keys) JWKS(ctx context.Context) (jose.JSONWebKeySet, error) {
	if err := k.load(ctx); err != nil {
		return jose.JSONWebKeySet{}, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	return jose.JSONWebKeySet{Keys: append([]jose.JSONWebKey(nil), k.public...)}, nil
}

// Sign signs claims (a struct or map, plus optional more) with the current
// key as a JWT with the key's id in its header.
func (k *Keys) Sign(ctx context.Context, claims ...any) (string, error) {
	cur, err := k.signer(ctx)
	if err != nil {
		return "", err
	}
	if cur == nil {
		return "", errors.New("the tool has no signing key (run `simulador lti keys rotate`)")
	}
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: cur.key, KeyID: cur.id}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	b := jwt.Signed(sig)
	for _, c := range claims {
		b = b.Claims(c)
	}
	return b.Serialize()
}
