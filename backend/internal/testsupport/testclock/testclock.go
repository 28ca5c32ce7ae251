// Package testclock is a test's "server time": it moves only when told,
// and goroutines may read it while the test moves it.
package testclock

import (
	"sync"
	"time"
)

// Clock is a settable time source; pass its Now where code takes a
// func() time.Time.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New starts a clock at t.
func New(t time.Time) *Clock { return &Clock{t: t} }

func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Set puts the clock at t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
