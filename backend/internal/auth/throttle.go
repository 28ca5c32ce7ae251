package auth

import (
	"sync"
	"time"
)

// Throttle slows down repeated failed sign-ins per key (an account or a
// client address): after Free failures within Window, each further attempt
// must wait a delay that doubles with every failure, up to MaxDelay. State is
// per process; a multi-instance deployment gets a per-instance limit.
type Throttle struct {
	Free     int
	Window   time.Duration
	BaseWait time.Duration
	MaxDelay time.Duration
	MaxKeys  int

	now func() time.Time
	mu  sync.Mutex
	m   map[string]*failures
}

type failures struct {
	count int
	first time.Time
	until time.Time
}

// NewThrottle returns a throttle with the given number of free failures.
func NewThrottle(free int, window time.Duration) *Throttle {
	return &Throttle{Free: free, Window: window, BaseWait: 30 * time.Second, MaxDelay: 15 * time.Minute,
		MaxKeys: 100_000, now: time.Now, m: map[string]*failures{}}
}

// Wait returns how long key must wait before its next attempt (0 = go).
func (t *Throttle) Wait(key string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	f, ok := t.m[key]
	if !ok {
		return 0
	}
	now := t.now()
	if now.Sub(f.first) > t.Window && now.After(f.until) {
		delete(t.m, key)
		return 0
	}
	if now.Before(f.until) {
		return f.until.Sub(now)
	}
	return 0
}

// Fail records a failed attempt for key.
func (t *Throttle) Fail(key string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	f, ok := t.m[key]
	if !ok || (now.Sub(f.first) > t.Window && now.After(f.until)) {
		if len(t.m) >= t.MaxKeys {
			t.sweep(now)
		}
		f = &failures{first: now}
		t.m[key] = f
	}
	f.count++
	if over := f.count - t.Free; over >= 0 {
		delay := t.BaseWait << min(over, 20)
		if delay > t.MaxDelay || delay <= 0 {
			delay = t.MaxDelay
		}
		f.until = now.Add(delay)
	}
}

// Reset forgets key's failures (after a successful sign-in).
func (t *Throttle) Reset(key string) {
	t.mu.Lock()
	delete(t.m, key)
	t.mu.Unlock()
}

// sweep drops expired entries; when the map is still full it is cleared, so
// memory stays bounded under a flood of distinct keys.
func (t *Throttle) sweep(now time.Time) {
	for k, f := range t.m {
		if now.Sub(f.first) > t.Window && now.After(f.until) {
			delete(t.m, k)
		}
	}
	if len(t.m) >= t.MaxKeys {
		clear(t.m)
	}
}
