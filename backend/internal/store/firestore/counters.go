package firestore

import (
	"context"
	"time"

	"github.com/utpl/simulador/backend/internal/store"
)

// colCounters holds store.Counter documents, one per key (docID(key)):
// {key, count, start, until, expiresAt}. expiresAt is a timestamp, so a
// Firestore TTL policy on it can delete expired counters too (the server's
// sweep does it anyway).
const colCounters = "counters"

func counterFrom(d doc, now time.Time) store.Counter {
	if !d.exists {
		return store.Counter{}
	}
	c := store.Counter{Count: d.data.int("count"), Start: d.data.time("start"), Until: d.data.time("until"), ExpiresAt: d.data.time("expiresAt")}
	if !c.ExpiresAt.After(now) {
		return store.Counter{}
	}
	return c
}

func (s *Store) GetCounter(ctx context.Context, key string, now time.Time) (store.Counter, error) {
	d, err := s.read().get(ctx, s.ref(colCounters, key))
	if err != nil {
		return store.Counter{}, err
	}
	return counterFrom(d, now), nil
}

// UpdateCounter runs fn in a transaction that reads the counter's
// document: Firestore serialises the transactions of one key (the loser
// runs again and sees the winner's result).
func (s *Store) UpdateCounter(ctx context.Context, key string, now time.Time, fn func(store.Counter) store.Counter) (store.Counter, error) {
	var out store.Counter
	err := s.write(ctx, func(t *txn) error {
		ref := s.ref(colCounters, key)
		d, err := t.get(ctx, ref)
		if err != nil {
			return err
		}
		cur := counterFrom(d, now)
		next := fn(cur).Normalized()
		switch {
		case !next.ExpiresAt.After(now):
			out = store.Counter{}
			if d.exists {
				t.delete(ref)
			}
		case !cur.IsZero() && next == cur:
			out = cur
		default:
			out = next
			t.set(ref, map[string]any{"key": key, "count": next.Count, "start": ts(next.Start), "until": ts(next.Until), "expiresAt": ts(next.ExpiresAt)})
		}
		return nil
	})
	return out, err
}

func (s *Store) DeleteExpiredCounters(ctx context.Context, now time.Time) (int64, error) {
	return s.deleteExpired(ctx, collection(colCounters).with(cond{"expiresAt", "<=", now}).take(expiredBatch))
}
