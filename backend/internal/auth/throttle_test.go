package auth

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

// newTestThrottle is a throttle on a fresh SQLite store with a settable
// clock. The store contract suite checks the counters on every store.
func newTestThrottle(t *testing.T, free int, window time.Duration) (*Throttle, store.Store, *time.Time) {
	t.Helper()
	st := sqlitetest.Open(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	th := NewThrottle(st, free, window)
	th.now = func() time.Time { return now }
	return th, st, &now
}

func TestThrottle(t *testing.T) {
	ctx := context.Background()
	th, st, now := newTestThrottle(t, 3, 15*time.Minute)
	reserve := func(key string) *Attempt {
		t.Helper()
		a, wait, err := th.Reserve(ctx, key)
		if err != nil || wait != 0 {
			t.Fatalf("Reserve(%s) refused: wait %v, err %v", key, wait, err)
		}
		return a
	}
	waitOf := func(key string) time.Duration {
		t.Helper()
		w, err := th.Wait(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}

	for i := range 2 {
		reserve("k")
		if w := waitOf("k"); w != 0 {
			t.Fatalf("after %d failures wait = %v", i+1, w)
		}
	}
	reserve("k") // third: the next attempt waits
	if w := waitOf("k"); w != 30*time.Second {
		t.Fatalf("after 3 failures wait = %v, want 30s", w)
	}
	if a, w, _ := th.Reserve(ctx, "k"); w != 30*time.Second || a != nil {
		t.Fatalf("a throttled attempt was let through (wait %v)", w)
	}
	*now = now.Add(30 * time.Second)
	reserve("k")
	if w := waitOf("k"); w != time.Minute {
		t.Fatalf("after 4 failures wait = %v, want 1m (doubling)", w)
	}
	for range 20 { // each as soon as allowed: the window has not ended while waits are running
		*now = now.Add(waitOf("k"))
		reserve("k")
	}
	if w := waitOf("k"); w != th.MaxDelay {
		t.Fatalf("wait is capped at %v, got %v", th.MaxDelay, w)
	}
	if waitOf("other") != 0 {
		t.Fatal("keys are independent")
	}
	*now = now.Add(th.MaxDelay + th.Window)
	if w := waitOf("k"); w != 0 {
		t.Fatalf("after the window wait = %v", w)
	}
	reserve("r")
	if err := th.Reset(ctx, "r"); err != nil {
		t.Fatal(err)
	}
	if c, _ := st.GetCounter(ctx, "r", *now); !c.IsZero() {
		t.Fatalf("after Reset the count is kept: %+v", c)
	}
	// Expired counts are swept from the store.
	if n, err := st.DeleteExpiredCounters(ctx, now.Add(th.MaxDelay+th.Window)); err != nil || n != 1 {
		t.Fatalf("swept %d counters (err %v), want 1 (k)", n, err)
	}
}

func TestThrottleCancelGivesTheAttemptBack(t *testing.T) {
	ctx := context.Background()
	th, st, now := newTestThrottle(t, 3, 15*time.Minute)
	count := func(key string) int64 {
		c, err := st.GetCounter(ctx, key, *now)
		if err != nil {
			t.Fatal(err)
		}
		return c.Count
	}
	var last *Attempt
	for range 3 {
		a, wait, err := th.Reserve(ctx, "k")
		if wait != 0 || err != nil {
			t.Fatal("refused within the allowance")
		}
		last = a
	}
	if w, _ := th.Wait(ctx, "k"); w == 0 {
		t.Fatal("three attempts in flight did not close the allowance")
	}
	// It was a success after all; a request that has ended still gives back.
	ended, cancel := context.WithCancel(ctx)
	cancel()
	if err := last.Cancel(ended); err != nil {
		t.Fatal(err)
	}
	if w, _ := th.Wait(ctx, "k"); w != 0 {
		t.Fatalf("after giving one back wait = %v", w)
	}
	_ = last.Cancel(ctx) // a second Cancel gives nothing more back
	if got := count("k"); got != 2 {
		t.Fatalf("count = %d, want 2", got)
	}
	var refused *Attempt
	if err := refused.Cancel(ctx); err != nil { // a refused attempt (nil) is harmless
		t.Fatal(err)
	}

	// An attempt from an expired window does not lower the next window's count.
	old, _, _ := th.Reserve(ctx, "w")
	*now = now.Add(th.Window + time.Second)
	_, _, _ = th.Reserve(ctx, "w")
	_ = old.Cancel(ctx)
	if got := count("w"); got != 1 {
		t.Fatalf("new window count = %d, want 1", got)
	}
}

// TestThrottleReservesAtomically: two throttles on one store stand for two
// server instances; together they let through exactly the allowance.
func TestThrottleReservesAtomically(t *testing.T) {
	th, st, _ := newTestThrottle(t, 5, time.Minute)
	other := NewThrottle(st, 5, time.Minute)
	other.now = th.now
	var wg sync.WaitGroup
	var mu sync.Mutex
	through := 0
	for i := range 40 {
		wg.Go(func() {
			instance := th
			if i%2 == 1 {
				instance = other
			}
			a, wait, err := instance.Reserve(context.Background(), "k")
			if err != nil {
				t.Error(err)
			}
			if a != nil && wait == 0 {
				mu.Lock()
				through++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if through != 5 {
		t.Fatalf("%d concurrent attempts let through by two instances, want 5", through)
	}
}

// TestThrottleFailCountsAfterTheFact: Fail counts a failure that was not
// reserved, even while the key waits and after the request has ended, and
// keeps the longest wait.
func TestThrottleFailCountsAfterTheFact(t *testing.T) {
	ctx := context.Background()
	th, _, now := newTestThrottle(t, 3, 15*time.Minute)
	ended, cancel := context.WithCancel(ctx)
	cancel()
	for i := range 5 {
		if err := th.Fail(ended, "k"); err != nil {
			t.Fatal(err)
		}
		if n, _ := th.Counted(ctx, "k"); n != int64(i+1) {
			t.Fatalf("after %d failures Counted = %d", i+1, n)
		}
	}
	// Failures 3, 4 and 5 at the same instant: 30 s, 1 min, 2 min.
	if w, _ := th.Wait(ctx, "k"); w != 2*time.Minute {
		t.Fatalf("wait = %v, want 2m", w)
	}
	*now = now.Add(time.Minute)
	if a, w, _ := th.Reserve(ctx, "k"); a != nil || w != time.Minute {
		t.Fatalf("Reserve while waiting: attempt %v, wait %v", a, w)
	}
	if a, _, _ := th.Reserve(ctx, "fresh"); a == nil || a.Earlier() != 0 {
		t.Fatalf("a fresh key's first attempt: %+v", a)
	}
	if a, _, _ := th.Reserve(ctx, "fresh"); a == nil || a.Earlier() != 1 {
		t.Fatalf("its second attempt: %+v", a)
	}
}
