package auth

import (
	"context"
	"hash/fnv"
	"sync"
	"time"

	"github.com/utpl/simulador/backend/internal/store"
)

// Throttle slows down repeated failed sign-ins per key (an account, a
// client address, or the pair of both): after Free failures within Window,
// the key waits a delay that doubles with every further failure, up to
// MaxDelay. What waiting means is the sign-in policy's (signin_throttle.go):
// a waiting pair or address is refused, a waiting account lets only
// addresses with a clean history try.
//
// The counts live in the store (store.Counters), not in this process, so
// every instance of the server enforces one limit: attempts spread over
// several instances by a load balancer count together. This type is the
// policy; the store only keeps the counts and serialises their updates.
//
// A failure is counted either when the attempt is let through (Reserve),
// before its password is checked, or once it has failed (Fail). Reserve is
// for a key only one party uses at a time (an account from one address):
// checking a password takes a while, and counting afterwards would let a
// burst of parallel guesses all pass before the first failure is recorded.
// Fail is for keys many people share (an address behind a NAT, an account
// under attack), where counting sign-ins in flight would refuse people
// whose passwords are right.
type Throttle struct {
	Free     int
	Window   time.Duration
	BaseWait time.Duration
	MaxDelay time.Duration

	counters store.Counters
	now      func() time.Time
	// stripes order this process's updates of one key (a key always maps
	// to the same stripe), so a burst of attempts on one account reaches
	// the store one at a time per instance instead of as many contending
	// transactions (Firestore settles those slowly: a hot document takes
	// about one write a second). They hold no state: the counts are in
	// the store.
	stripes [64]sync.Mutex
}

func (t *Throttle) stripe(key string) *sync.Mutex {
	h := fnv.New32a()
	_, _ = h.Write([]byte(key))
	return &t.stripes[h.Sum32()%uint32(len(t.stripes))]
}

// NewThrottle returns a throttle with the given number of free failures
// whose counts are kept in counters.
func NewThrottle(counters store.Counters, free int, window time.Duration) *Throttle {
	return &Throttle{Free: free, Window: window, BaseWait: 30 * time.Second, MaxDelay: 15 * time.Minute,
		counters: counters, now: time.Now}
}

// Attempt is an attempt counted by Reserve; nil for a refused one.
type Attempt struct {
	t       *Throttle
	key     string
	start   time.Time // the window it was counted in
	earlier int64     // what the key had counted before it
	done    bool
}

// Earlier is what the key had counted before this attempt: its failures in
// the window and the attempts still in flight. 0 is a clean history.
func (a *Attempt) Earlier() int64 { return a.earlier }

// clock is the current time as the store keeps it (milliseconds).
func (t *Throttle) clock() time.Time { return t.now().UTC().Truncate(time.Millisecond) }

// expiry is when a counter may be forgotten: just after both its window
// and its wait are over (the store forgets it at ExpiresAt; the policy
// keeps it through the last instant of either).
func (t *Throttle) expiry(c store.Counter) time.Time {
	end := c.Start.Add(t.Window)
	if c.Until.After(end) {
		end = c.Until
	}
	return end.Add(time.Millisecond)
}

// Reserve lets an attempt for key through and counts it as a failure at
// once, or refuses it and returns how long key must still wait. The check
// and the count are one atomic update in the store, so concurrent attempts
// (on any instance) cannot overtake each other. An attempt that turns out
// not to be a failure is given back with Attempt.Cancel (or forgotten with
// Reset).
func (t *Throttle) Reserve(ctx context.Context, key string) (*Attempt, time.Duration, error) {
	mu := t.stripe(key)
	mu.Lock()
	defer mu.Unlock()
	now := t.clock()
	// A key that must wait is refused on a plain read: a flood of attempts
	// on a blocked account costs no transaction. (A wait that another
	// instance ends meanwhile, by a success, refuses one attempt more.)
	if c, err := t.counters.GetCounter(ctx, key, now); err != nil {
		return nil, 0, err
	} else if now.Before(c.Until) {
		return nil, c.Until.Sub(now), nil
	}
	var wait time.Duration
	var earlier int64
	c, err := t.counters.UpdateCounter(ctx, key, now, func(c store.Counter) store.Counter {
		wait = 0 // fn may run again
		if now.Before(c.Until) {
			wait = c.Until.Sub(now)
			return c
		}
		earlier = c.Count
		return t.count(c, now)
	})
	if err != nil || wait > 0 {
		return nil, wait, err
	}
	return &Attempt{t: t, key: key, start: c.Start, earlier: earlier}, 0, nil
}

// count adds one failure to c at now: from the Free-th on, the key waits
// BaseWait, doubled for each failure past it, at most MaxDelay (a wait
// already longer is kept).
func (t *Throttle) count(c store.Counter, now time.Time) store.Counter {
	if c.IsZero() {
		c.Start = now
	}
	c.Count++
	if over := c.Count - int64(t.Free); over >= 0 {
		delay := t.BaseWait << min(over, 20)
		if delay > t.MaxDelay || delay <= 0 {
			delay = t.MaxDelay
		}
		if until := now.Add(delay); until.After(c.Until) {
			c.Until = until
		}
	}
	c.ExpiresAt = t.expiry(c)
	return c
}

// Fail counts a failure of key that was not reserved beforehand: it is
// counted even while key waits, and even when ctx has ended (a client
// that hangs up after sending its guess must not escape the count).
func (t *Throttle) Fail(ctx context.Context, key string) error {
	mu := t.stripe(key)
	mu.Lock()
	defer mu.Unlock()
	now := t.clock()
	_, err := t.counters.UpdateCounter(context.WithoutCancel(ctx), key, now, func(c store.Counter) store.Counter {
		return t.count(c, now)
	})
	return err
}

// Counted returns how many failures (and reserved attempts) key has in its
// window, without counting anything.
func (t *Throttle) Counted(ctx context.Context, key string) (int64, error) {
	c, err := t.counters.GetCounter(ctx, key, t.clock())
	return c.Count, err
}

// Cancel gives the attempt back: it was not a failure (a successful
// sign-in from an address, or an error that was not the caller's). Once
// fewer than Free attempts remain counted, the key no longer waits. Cancel
// on nil or a second time does nothing; it runs even when ctx has ended
// (the request is over, the count must still come down).
func (a *Attempt) Cancel(ctx context.Context) error {
	if a == nil || a.done {
		return nil
	}
	a.done = true
	t := a.t
	_, err := t.counters.UpdateCounter(context.WithoutCancel(ctx), a.key, t.clock(), func(c store.Counter) store.Counter {
		// The counter may have expired and started again since: that
		// window's count is not this attempt's to lower.
		if c.IsZero() || !c.Start.Equal(a.start) || c.Count == 0 {
			return c
		}
		c.Count--
		if c.Count < int64(t.Free) {
			c.Until = time.Time{}
		}
		c.ExpiresAt = t.expiry(c)
		return c
	})
	return err
}

// Wait returns how long key must wait before its next attempt (0 = go),
// without counting anything.
func (t *Throttle) Wait(ctx context.Context, key string) (time.Duration, error) {
	now := t.clock()
	c, err := t.counters.GetCounter(ctx, key, now)
	if err != nil || !now.Before(c.Until) {
		return 0, err
	}
	return c.Until.Sub(now), nil
}

// Reset forgets key's failures (after a successful sign-in).
func (t *Throttle) Reset(ctx context.Context, key string) error {
	_, err := t.counters.UpdateCounter(context.WithoutCancel(ctx), key, t.clock(), func(store.Counter) store.Counter { return store.Counter{} })
	return err
}
