package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/store"
)

// increment adds one to a counter that lives for window from its start.
func increment(now time.Time, window time.Duration) func(store.Counter) store.Counter {
	return func(c store.Counter) store.Counter {
		if c.IsZero() {
			c.Start = now
			c.ExpiresAt = now.Add(window)
		}
		c.Count++
		return c
	}
}

func testCounters(t *testing.T, s store.Store) {
	t0 := now()
	get := func(key string, at time.Time) store.Counter {
		t.Helper()
		c, err := s.GetCounter(ctx, key, at)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	update := func(key string, at time.Time, fn func(store.Counter) store.Counter) store.Counter {
		t.Helper()
		c, err := s.UpdateCounter(ctx, key, at, fn)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	if c := get("mail:nadie@utpl.edu.ec", t0); !c.IsZero() {
		t.Fatalf("a missing counter reads %+v", c)
	}
	c := update("mail:ana@utpl.edu.ec", t0, increment(t0, time.Minute))
	want := store.Counter{Count: 1, Start: t0, ExpiresAt: t0.Add(time.Minute)}
	if c != want {
		t.Fatalf("first update stored %+v, want %+v", c, want)
	}
	c = update("mail:ana@utpl.edu.ec", t0.Add(time.Second), increment(t0, time.Minute))
	if c.Count != 2 || !c.Start.Equal(t0) {
		t.Fatalf("second update stored %+v", c)
	}
	// Until is kept as given, to the millisecond, and keys are independent.
	until := t0.Add(90*time.Second + 1234*time.Microsecond)
	c = update("ip:10.0.0.1", t0, func(c store.Counter) store.Counter {
		return store.Counter{Count: 7, Start: t0, Until: until, ExpiresAt: until}
	})
	if !c.Until.Equal(until.Truncate(time.Millisecond)) || c.Count != 7 {
		t.Fatalf("stored %+v, want Until %v", c, until.Truncate(time.Millisecond))
	}
	if got := get("ip:10.0.0.1", t0.Add(time.Second)); got != c {
		t.Fatalf("read back %+v, want %+v", got, c)
	}
	if got := get("mail:ana@utpl.edu.ec", t0); got.Count != 2 {
		t.Fatalf("another key changed the count: %+v", got)
	}
	// fn sees the stored value; an unchanged result changes nothing.
	var seen store.Counter
	same := update("mail:ana@utpl.edu.ec", t0, func(c store.Counter) store.Counter { seen = c; return c })
	if seen.Count != 2 || same != seen {
		t.Fatalf("fn saw %+v and the store kept %+v", seen, same)
	}

	// Expired counters read as zero, restart, and are swept.
	later := t0.Add(time.Minute)
	if got := get("mail:ana@utpl.edu.ec", later); !got.IsZero() {
		t.Fatalf("an expired counter reads %+v", got)
	}
	var sawExpired store.Counter
	update("mail:ana@utpl.edu.ec", later, func(c store.Counter) store.Counter { sawExpired = c; return c })
	if !sawExpired.IsZero() {
		t.Fatalf("fn was given an expired counter: %+v", sawExpired)
	}
	update("mail:old@utpl.edu.ec", t0, increment(t0, time.Minute))
	n, err := s.DeleteExpiredCounters(ctx, later)
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 { // old's: ana's went with the update that found it expired; ip's lives until 90 s
		t.Fatalf("swept %d counters, want 1", n)
	}
	if got := get("ip:10.0.0.1", t0); got.Count != 7 {
		t.Fatalf("the sweep removed a live counter: %+v", got)
	}

	// A zero result resets: the counter is gone.
	if c := update("ip:10.0.0.1", t0, func(store.Counter) store.Counter { return store.Counter{} }); !c.IsZero() {
		t.Fatalf("reset returned %+v", c)
	}
	if got := get("ip:10.0.0.1", t0); !got.IsZero() {
		t.Fatalf("after a reset the counter reads %+v", got)
	}
	if n, err := s.DeleteExpiredCounters(ctx, t0.Add(time.Hour)); err != nil || n != 0 {
		t.Fatalf("after the reset and the sweep: %d left to sweep, err %v", n, err)
	}
}

// testCountersConcurrent: updates of one key from many callers at once are
// serialised, so no increment is lost, and a check-then-add done inside fn
// lets exactly the allowed number through (what sign-in throttling needs
// when a burst of attempts arrives at several instances).
func testCountersConcurrent(t *testing.T, s store.Store) {
	t0 := now()
	const callers, allowed = 2 * racers, racers / 2
	var wg sync.WaitGroup
	var mu sync.Mutex
	passed := 0
	errs := make(chan error, callers)
	for range callers {
		wg.Go(func() {
			let := false
			if _, err := s.UpdateCounter(ctx, "mail:burst@utpl.edu.ec", t0, func(c store.Counter) store.Counter {
				let = false // fn may run again
				if c.Count >= allowed {
					return c
				}
				let = true
				return increment(t0, time.Minute)(c)
			}); err != nil {
				errs <- err
				return
			}
			if let {
				mu.Lock()
				passed++
				mu.Unlock()
			}
		})
		wg.Go(func() {
			if _, err := s.UpdateCounter(ctx, "ip:burst", t0, increment(t0, time.Minute)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if passed != allowed {
		t.Fatalf("%d of %d callers passed the check, want %d", passed, callers, allowed)
	}
	if c, err := s.GetCounter(ctx, "ip:burst", t0); err != nil || c.Count != callers {
		t.Fatalf("after %d concurrent increments the count is %d (err %v)", callers, c.Count, err)
	}
}
