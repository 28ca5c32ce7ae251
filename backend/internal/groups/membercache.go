package groups

import (
	"sync"
	"time"
)

// memberCacheTTL is how long whether a student is in an active group is
// reused without asking the store: every page a student opens asks it
// (the session, /test's guard). A change made on this instance clears the
// cache at once; one made on another instance is seen within this time.
const memberCacheTTL = time.Second

// memberCacheMax bounds the cache; past it, it starts over.
const memberCacheMax = 50000

type memberEntry struct {
	member bool
	at     time.Time
}

type memberCache struct {
	mu sync.Mutex
	m  map[string]memberEntry
}

func newMemberCache() *memberCache { return &memberCache{m: map[string]memberEntry{}} }

func (c *memberCache) get(email string) (bool, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[email]
	if !ok || time.Since(e.at) >= memberCacheTTL {
		return false, false
	}
	return e.member, true
}

func (c *memberCache) put(email string, member bool, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= memberCacheMax {
		clear(c.m)
	}
	c.m[email] = memberEntry{member: member, at: at}
}

// clear forgets every answer: a group changed.
func (c *memberCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.m)
}
