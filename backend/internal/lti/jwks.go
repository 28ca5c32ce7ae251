package lti

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// remoteKeys caches the platforms' public key sets. A set is fetched when
// first needed, again after maxAge, and again when a token names a key id
// the cached set lacks (the platform rotated its keys) — at most once per
// minRefresh, so forged key ids cannot make the tool hammer a platform.
type remoteKeys struct {
	client     *http.Client
	now        func() time.Time
	maxAge     time.Duration
	minRefresh time.Duration

	mu   sync.Mutex
	sets map[string]*remoteSet
}

type remoteSet struct {
	mu      sync.Mutex // one fetch of a set at a time
	keys    jose.JSONWebKeySet
	fetched time.Time
}

// maxJWKSBytes bounds a key set document.
const maxJWKSBytes = 1 << 20

func newRemoteKeys(c *http.Client, now func() time.Time) *remoteKeys {
	return &remoteKeys{client: c, now: now, maxAge: time.Hour, minRefresh: 5 * time.Second, sets: map[string]*remoteSet{}}
}

// errUnknownKey is a token signed with a key the platform does not publish.
var errUnknownKey = errors.New("no key with this kid in the platform's key set")

// key returns the platform key named kid; errUnknownKey when the set has
// none (an empty kid never names a key).
func (r *remoteKeys) key(ctx context.Context, jwksURL, kid string) (*jose.JSONWebKey, error) {
	r.mu.Lock()
	set := r.sets[jwksURL]
	if set == nil {
		set = &remoteSet{}
		r.sets[jwksURL] = set
	}
	r.mu.Unlock()

	set.mu.Lock()
	defer set.mu.Unlock()
	now := r.now()
	stale := set.fetched.IsZero() || now.Sub(set.fetched) >= r.maxAge
	if !stale {
		if k := find(set.keys, kid); k != nil {
			return k, nil
		}
		if now.Sub(set.fetched) < r.minRefresh {
			return nil, errUnknownKey
		}
	}
	keys, err := r.fetch(ctx, jwksURL)
	if err != nil {
		if k := find(set.keys, kid); k != nil && !set.fetched.IsZero() {
			return k, nil // keep using a known key while the platform is unreachable
		}
		return nil, err
	}
	set.keys, set.fetched = keys, now
	if k := find(keys, kid); k != nil {
		return k, nil
	}
	return nil, errUnknownKey
}

// find returns the key of set named kid. A token that names no key is
// never matched, even against a set of one key: the platform says which of
// its keys signed (the kid header), and a tool that guessed would accept
// tokens whose meaning depends on how many keys the platform publishes.
func find(set jose.JSONWebKeySet, kid string) *jose.JSONWebKey {
	if kid == "" {
		return nil
	}
	for i := range set.Keys {
		if set.Keys[i].KeyID == kid {
			return &set.Keys[i]
		}
	}
	return nil
}

func (r *remoteKeys) fetch(ctx context.Context, jwksURL string) (jose.JSONWebKeySet, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, jwksURL, nil)
	if err != nil {
		return jose.JSONWebKeySet{}, err
	}
	req.Header.Set("Accept", "application/json")
	res, err := r.client.Do(req)
	if err != nil {
		return jose.JSONWebKeySet{}, fmt.Errorf("fetch the platform's keys: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return jose.JSONWebKeySet{}, fmt.Errorf("fetch the platform's keys: HTTP %d", res.StatusCode)
	}
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(io.LimitReader(res.Body, maxJWKSBytes)).Decode(&set); err != nil {
		return jose.JSONWebKeySet{}, fmt.Errorf("read the platform's keys: %w", err)
	}
	return set, nil
}
