package auth

import (
	"sync"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// sessionCacheTTL is how long a resolved session and its user are reused
// without asking the store again. Every request of a signed-in user
// resolves the session (a student's browser sends a recording chunk every
// 2 s); within a second the answer is taken from memory.
//
// The cache is on only for a store that one server process owns (SQLite,
// see Sessions.CacheResolved): every sign-out, revocation, new password and
// role change goes through this process and forgets the cached sessions at
// once. Only a terminal command run against the same database file (users
// set-password, set-role) takes up to this long to be seen. With PostgreSQL
// or Firestore, where other instances end sessions, there is no cache: a
// sign-out anywhere ends the session everywhere at once.
const sessionCacheTTL = time.Second

// sessionCacheMax bounds the cache; past it, it starts over.
const sessionCacheMax = 50000

type cachedSession struct {
	se       domain.Session
	user     domain.User
	resolved time.Time // when the store was last asked
}

// sessionCache keeps recently resolved sessions by token hash.
type sessionCache struct {
	mu sync.Mutex
	m  map[string]cachedSession
}

func newSessionCache() *sessionCache { return &sessionCache{m: map[string]cachedSession{}} }

// get returns the session resolved from the store less than
// sessionCacheTTL ago.
func (c *sessionCache) get(hash string, now time.Time) (cachedSession, bool) {
	if c == nil {
		return cachedSession{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[hash]
	if !ok || now.Sub(e.resolved) >= sessionCacheTTL || now.Before(e.resolved) {
		return cachedSession{}, false
	}
	return e, true
}

func (c *sessionCache) put(hash string, e cachedSession) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= sessionCacheMax {
		clear(c.m)
	}
	c.m[hash] = e
}

// touched records a new last-seen time of a cached session.
func (c *sessionCache) touched(hash string, at time.Time) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.m[hash]; ok {
		e.se.LastSeenAt = at
		c.m[hash] = e
	}
}

func (c *sessionCache) forget(hash string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, hash)
}

// forgetUser drops the cached sessions of a user whose sessions were
// ended or whose account changed. A nil cache (off) does nothing.
func (c *sessionCache) forgetUser(userID string) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for h, e := range c.m {
		if e.se.UserID == userID {
			delete(c.m, h)
		}
	}
}
