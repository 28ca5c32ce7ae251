package auth

import (
	"sync"
	"testing"
	"time"
)

func TestThrottle(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	th := NewThrottle(3, 15*time.Minute)
	th.now = func() time.Time { return now }
	reserve := func(key string) {
		t.Helper()
		if _, wait := th.Reserve(key); wait != 0 {
			t.Fatalf("Reserve(%s) refused: wait %v", key, wait)
		}
	}

	for i := range 2 {
		reserve("k")
		if w := th.Wait("k"); w != 0 {
			t.Fatalf("after %d failures wait = %v", i+1, w)
		}
	}
	reserve("k") // third: the next attempt waits
	if w := th.Wait("k"); w != 30*time.Second {
		t.Fatalf("after 3 failures wait = %v, want 30s", w)
	}
	if a, w := th.Reserve("k"); w != 30*time.Second || a != nil {
		t.Fatalf("a throttled attempt was let through (wait %v)", w)
	}
	now = now.Add(30 * time.Second)
	reserve("k")
	if w := th.Wait("k"); w != time.Minute {
		t.Fatalf("after 4 failures wait = %v, want 1m (doubling)", w)
	}
	for range 20 { // each as soon as allowed: the window has not ended while waits are running
		now = now.Add(th.Wait("k"))
		reserve("k")
	}
	if w := th.Wait("k"); w != th.MaxDelay {
		t.Fatalf("wait is capped at %v, got %v", th.MaxDelay, w)
	}
	if th.Wait("other") != 0 {
		t.Fatal("keys are independent")
	}
	now = now.Add(th.MaxDelay + th.Window)
	if w := th.Wait("k"); w != 0 {
		t.Fatalf("after the window wait = %v", w)
	}
	reserve("r")
	th.Reset("r")
	if _, ok := th.m["r"]; ok {
		t.Fatalf("entries left: %v", th.m)
	}
}

func TestThrottleCancelGivesTheAttemptBack(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	th := NewThrottle(3, 15*time.Minute)
	th.now = func() time.Time { return now }
	var last *Attempt
	for range 3 {
		a, wait := th.Reserve("k")
		if wait != 0 {
			t.Fatal("refused within the allowance")
		}
		last = a
	}
	if th.Wait("k") == 0 {
		t.Fatal("three attempts in flight did not close the allowance")
	}
	last.Cancel() // it was a success after all
	if w := th.Wait("k"); w != 0 {
		t.Fatalf("after giving one back wait = %v", w)
	}
	last.Cancel() // a second Cancel gives nothing more back
	if got := th.m["k"].count; got != 2 {
		t.Fatalf("count = %d, want 2", got)
	}
	var refused *Attempt
	refused.Cancel() // a refused attempt (nil) is harmless

	// An attempt from an expired window does not lower the next window's count.
	old, _ := th.Reserve("w")
	now = now.Add(th.Window + time.Second)
	th.Reserve("w")
	old.Cancel()
	if got := th.m["w"].count; got != 1 {
		t.Fatalf("new window count = %d, want 1", got)
	}
}

func TestThrottleReservesAtomically(t *testing.T) {
	th := NewThrottle(5, time.Minute)
	var wg sync.WaitGroup
	var mu sync.Mutex
	through := 0
	for range 100 {
		wg.Go(func() {
			if _, wait := th.Reserve("k"); wait == 0 {
				mu.Lock()
				through++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if through != 5 {
		t.Fatalf("%d concurrent attempts let through, want 5", through)
	}
}

func TestThrottleMemoryIsBounded(t *testing.T) {
	th := NewThrottle(3, time.Minute)
	th.MaxKeys = 100
	for i := range 1000 {
		th.Reserve(string(rune('a'+i%26)) + time.Duration(i).String())
	}
	if len(th.m) > 100 {
		t.Fatalf("%d keys kept, max 100", len(th.m))
	}
}
