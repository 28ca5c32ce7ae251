package exams

import "sync"

// ownerCache remembers which student owns an attempt, a fact that never
// changes once the attempt exists, so the uploads of a recording (a chunk
// every 2 s) need not read and decode the whole attempt each time.
type ownerCache struct {
	mu sync.RWMutex
	m  map[string]string // attempt id → student id
}

// ownerCacheMax bounds the cache; past it, it starts over.
const ownerCacheMax = 100000

func newOwnerCache() *ownerCache { return &ownerCache{m: map[string]string{}} }

func (c *ownerCache) get(attemptID string) (string, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	id, ok := c.m[attemptID]
	return id, ok
}

func (c *ownerCache) put(attemptID, studentID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= ownerCacheMax {
		clear(c.m)
	}
	c.m[attemptID] = studentID
}
