package sqlstore

import (
	"context"
	"errors"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

func (s *DB) GetCounter(ctx context.Context, key string, now time.Time) (store.Counter, error) {
	c, err := s.readCounter(ctx, key, now, false)
	if errors.Is(err, domain.ErrNotFound) {
		return store.Counter{}, nil
	}
	return c, err
}

// readCounter reads a live counter; lock takes its row lock until the end
// of the transaction (PostgreSQL; SQLite's write transaction already
// excludes every other writer).
func (s *DB) readCounter(ctx context.Context, key string, now time.Time, lock bool) (store.Counter, error) {
	q := `SELECT count, start_at, until_at, expires_at FROM counters WHERE id = ? AND expires_at > ?`
	if lock && s.d.Name == "postgres" {
		q += ` FOR UPDATE`
	}
	var c store.Counter
	var start, until, expires int64
	if err := s.queryRow(ctx, q, key, ms(now)).Scan(&c.Count, &start, &until, &expires); err != nil {
		return store.Counter{}, s.mapErr(err)
	}
	c.Start, c.Until, c.ExpiresAt = fromMS(start), fromMS(until), fromMS(expires)
	return c, nil
}

func (s *DB) UpdateCounter(ctx context.Context, key string, now time.Time, fn func(store.Counter) store.Counter) (store.Counter, error) {
	var out store.Counter
	err := s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		// An empty, already expired row is inserted first when there is
		// none, so that concurrent first updates queue on its lock instead
		// of both finding nothing and racing to insert.
		if _, err := tx.exec(ctx, `INSERT INTO counters (id, count, start_at, until_at, expires_at) VALUES (?, 0, 0, 0, 0) ON CONFLICT (id) DO NOTHING`, key); err != nil {
			return err
		}
		cur, err := tx.readCounter(ctx, key, now, true)
		live := err == nil
		if err != nil && !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		next := fn(cur).Normalized()
		switch {
		case !next.ExpiresAt.After(now):
			out = store.Counter{}
			_, err = tx.exec(ctx, `DELETE FROM counters WHERE id = ?`, key)
		case live && next == cur:
			out = cur
		default:
			out = next
			_, err = tx.exec(ctx, `UPDATE counters SET count = ?, start_at = ?, until_at = ?, expires_at = ? WHERE id = ?`,
				next.Count, ms(next.Start), ms(next.Until), ms(next.ExpiresAt), key)
		}
		return err
	})
	return out, err
}

func (s *DB) DeleteExpiredCounters(ctx context.Context, now time.Time) (int64, error) {
	return s.execCount(ctx, `DELETE FROM counters WHERE expires_at <= ?`, ms(now))
}
