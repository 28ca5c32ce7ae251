package auth

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// retryAfterOf is the Retry-After a busy answer carries, in seconds.
func retryAfterOf(t *testing.T, err error) int {
	t.Helper()
	var ue *domain.UserError
	if !errors.As(err, &ue) || ue.Code != CodeServerBusy || !errors.Is(err, domain.ErrTooManyRequests) {
		t.Fatalf("want a busy answer (429 server_busy), got %v", err)
	}
	return ue.Details.(map[string]int)["retryAfterSeconds"]
}

func TestHashQueueRunsSlotsAtOnceAndQueuesTheRest(t *testing.T) {
	q := newHashQueue(2)
	r1, err1 := q.acquire(context.Background())
	r2, err2 := q.acquire(context.Background())
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	got := make(chan struct{})
	go func() {
		r, err := q.acquire(context.Background())
		if err != nil {
			t.Error(err)
			return
		}
		close(got)
		r()
	}()
	select {
	case <-got:
		t.Fatal("a third hash ran beside two")
	case <-time.After(50 * time.Millisecond):
	}
	r1()
	select {
	case <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("the queued hash did not run when a slot freed")
	}
	r2()
}

func TestHashQueueRefusesAtOnceWhenTheWaitWouldBeTooLong(t *testing.T) {
	q := newHashQueue(1)
	q.maxWait = 8 * time.Second
	q.perHash.Store(int64(time.Second)) // slow hashes: 1 s each
	release, err := q.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	// Eight wait (8 s of work ahead, the most allowed): they queue.
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	for range 9 {
		wg.Go(func() {
			if r, err := q.acquire(ctx); err == nil {
				r()
			}
		})
	}
	for q.waiting.Load() < 9 { // however long a busy machine takes to start them
		time.Sleep(time.Millisecond)
	}
	// The next one would wait ~9 s: refused at once, told to come back
	// in about half of that.
	// (It cannot have waited: the slot and the queue are held until the
	// end of the test, so a wait would never return.)
	_, err = q.acquire(context.Background())
	if secs := retryAfterOf(t, err); secs < 4 || secs > 5 {
		t.Errorf("Retry-After %d s, want about half of the 9 s queue", secs)
	}
	cancel()
	wg.Wait()
}

func TestHashQueueBoundsTheWaitingRequests(t *testing.T) {
	q := newHashQueue(1)
	q.maxQueue = 3
	q.perHash.Store(1) // fast hashes: only the count can refuse
	release, err := q.acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if r, err := q.acquire(ctx); err == nil {
				r()
			}
		})
	}
	for q.waiting.Load() < 3 {
		time.Sleep(time.Millisecond)
	}
	if _, err := q.acquire(context.Background()); retryAfterOf(t, err) < 1 {
		t.Error("a refusal must ask for at least 1 s")
	}
	cancel()
	wg.Wait()
	release()
}

func TestHashQueueLearnsTheTimePerHash(t *testing.T) {
	// Hashes that take at least 100 ms, against a first guess of 40 ms:
	// after 24 of them the moving average must have moved well above the
	// guess. A busy machine only makes each one longer, never shorter, so
	// the bound holds under any load.
	q := newHashQueue(2)
	for range 24 {
		r, err := q.acquire(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
		r()
	}
	if got := time.Duration(q.perHash.Load()); got < 2*firstHashGuess {
		t.Errorf("time per hash %s after 24 hashes of at least 100 ms (first guess %s)", got, firstHashGuess)
	}
	if est := q.estimate(10); est <= 0 {
		t.Errorf("estimate for 10 ahead = %s", est)
	}
}
