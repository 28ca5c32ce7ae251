package firestore_test

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/utpl/simulador/backend/internal/store"
)

// TestInTxRunsAgainOnContention: transactions that read and write the same
// document at once are not lost: Firestore aborts all but one, and InTx
// runs the others' functions again on fresh data.
func TestInTxRunsAgainOnContention(t *testing.T) {
	needEmulator(t)
	ctx := context.Background()
	s := open(t, newProject("retry"))
	if err := s.SetMeta(ctx, "counter", "0"); err != nil {
		t.Fatal(err)
	}
	const n = 3
	var runs atomic.Int32
	var wg, allRead sync.WaitGroup
	allRead.Add(n)
	for range n {
		wg.Go(func() {
			first := true
			err := s.InTx(ctx, func(tx store.Store) error {
				runs.Add(1)
				v, err := tx.GetMeta(ctx, "counter")
				if err != nil {
					return err
				}
				if first {
					// Every transaction has read the counter before any
					// writes it: they cannot all commit.
					first = false
					allRead.Done()
					allRead.Wait()
				}
				i, _ := strconv.Atoi(v)
				return tx.SetMeta(ctx, "counter", strconv.Itoa(i+1))
			})
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if v, err := s.GetMeta(ctx, "counter"); err != nil || v != strconv.Itoa(n) {
		t.Fatalf("counter = %q, %v; want %d", v, err, n)
	}
	if runs.Load() <= n {
		t.Fatalf("%d runs for %d contending transactions: none was run again", runs.Load(), n)
	}
}
