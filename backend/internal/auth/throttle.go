package auth

import (
	"sync"
	"time"
)

// Throttle slows down repeated failed sign-ins per key (an account or a
// client address): after Free failures within Window, each further attempt
// must wait a delay that doubles with every failure, up to MaxDelay. State is
// per process; a multi-instance deployment gets a per-instance limit.
//
// An attempt is counted when it is let through (Reserve), not when its
// password has been found wrong: checking a password takes a while, and
// counting afterwards would let a burst of parallel attempts all pass the
// check before the first failure is recorded.
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
	count int // attempts let through in this window, minus those given back
	first time.Time
	until time.Time
}

// NewThrottle returns a throttle with the given number of free failures.
func NewThrottle(free int, window time.Duration) *Throttle {
	return &Throttle{Free: free, Window: window, BaseWait: 30 * time.Second, MaxDelay: 15 * time.Minute,
		MaxKeys: 100_000, now: time.Now, m: map[string]*failures{}}
}

// Attempt is an attempt counted by Reserve; nil for a refused one.
type Attempt struct {
	t        *Throttle
	key      string
	f        *failures
	canceled bool // guarded by t.mu
}

// Reserve lets an attempt for key through and counts it as a failure at
// once, or refuses it and returns how long key must still wait. The check
// and the count happen under one lock, so concurrent attempts cannot
// overtake each other. An attempt that turns out not to be a failure is
// given back with Attempt.Cancel (or forgotten with Reset).
func (t *Throttle) Reserve(key string) (*Attempt, time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	f, ok := t.m[key]
	if ok && t.expired(f, now) {
		delete(t.m, key)
		ok = false
	}
	if ok && now.Before(f.until) {
		return nil, f.until.Sub(now)
	}
	if !ok {
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
	return &Attempt{t: t, key: key, f: f}, 0
}

// Cancel gives the attempt back: it was not a failure (a successful
// sign-in from an address, or an error that was not the caller's). Once
// fewer than Free attempts remain counted, the key no longer waits. Cancel
// on nil or a second time does nothing.
func (a *Attempt) Cancel() {
	if a == nil {
		return
	}
	a.t.mu.Lock()
	defer a.t.mu.Unlock()
	// The entry may have expired and been replaced since: that window's
	// count is not this attempt's to lower.
	if a.canceled || a.t.m[a.key] != a.f || a.f.count == 0 {
		return
	}
	a.canceled = true
	a.f.count--
	if a.f.count < a.t.Free {
		a.f.until = time.Time{}
	}
}

// Wait returns how long key must wait before its next attempt (0 = go),
// without counting anything.
func (t *Throttle) Wait(key string) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	f, ok := t.m[key]
	if !ok {
		return 0
	}
	now := t.now()
	if t.expired(f, now) {
		delete(t.m, key)
		return 0
	}
	if now.Before(f.until) {
		return f.until.Sub(now)
	}
	return 0
}

// Reset forgets key's failures (after a successful sign-in).
func (t *Throttle) Reset(key string) {
	t.mu.Lock()
	delete(t.m, key)
	t.mu.Unlock()
}

func (t *Throttle) expired(f *failures, now time.Time) bool {
	return now.Sub(f.first) > t.Window && now.After(f.until)
}

// sweep drops expired entries; when the map is still full it is cleared, so
// memory stays bounded under a flood of distinct keys.
func (t *Throttle) sweep(now time.Time) {
	for k, f := range t.m {
		if t.expired(f, now) {
			delete(t.m, k)
		}
	}
	if len(t.m) >= t.MaxKeys {
		clear(t.m)
	}
}
