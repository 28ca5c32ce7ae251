package auth

import (
	"testing"
	"time"
)

func TestThrottle(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	th := NewThrottle(3, 15*time.Minute)
	th.now = func() time.Time { return now }

	for i := range 2 {
		th.Fail("k")
		if w := th.Wait("k"); w != 0 {
			t.Fatalf("after %d failures wait = %v", i+1, w)
		}
	}
	th.Fail("k") // third: the next attempt waits
	if w := th.Wait("k"); w != 30*time.Second {
		t.Fatalf("after 3 failures wait = %v, want 30s", w)
	}
	th.Fail("k")
	if w := th.Wait("k"); w != time.Minute {
		t.Fatalf("after 4 failures wait = %v, want 1m (doubling)", w)
	}
	for range 20 {
		th.Fail("k")
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
	th.Fail("r")
	th.Reset("r")
	if len(th.m) != 0 {
		t.Fatalf("entries left: %v", th.m)
	}
}

func TestThrottleMemoryIsBounded(t *testing.T) {
	th := NewThrottle(3, time.Minute)
	th.MaxKeys = 100
	for i := range 1000 {
		th.Fail(string(rune('a'+i%26)) + time.Duration(i).String())
	}
	if len(th.m) > 100 {
		t.Fatalf("%d keys kept, max 100", len(th.m))
	}
}
