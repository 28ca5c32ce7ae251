package sqlstore

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// Writers get their turn in order of arrival, and one that would wait too
// long, or finds the queue full, is refused as busy instead.
func TestWriteGate(t *testing.T) {
	g := newWriteGate(time.Second, 3)
	leave, err := g.enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	order := make(chan int, 3)
	for i := range 3 {
		go func() {
			l, err := g.enter(context.Background())
			if err != nil {
				t.Error(err)
				return
			}
			order <- i
			l()
		}()
		for g.waiting.Load() != int64(i+1) {
			time.Sleep(time.Millisecond)
		}
	}
	// A fourth finds three waiting: refused at once.
	var busy *domain.BusyError
	if _, err := g.enter(context.Background()); !errors.As(err, &busy) || !errors.Is(err, domain.ErrUnavailable) {
		t.Fatalf("full queue: %v", err)
	}
	leave()
	for want := range 3 {
		if got := <-order; got != want {
			t.Fatalf("writer %d went before writer %d", got, want)
		}
	}

	// A writer that waits past maxWait is refused; one whose request ends
	// gets its context's error.
	g = newWriteGate(50*time.Millisecond, 10)
	leave, _ = g.enter(context.Background())
	defer leave()
	if _, err := g.enter(context.Background()); !errors.As(err, &busy) {
		t.Fatalf("long wait: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.enter(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
