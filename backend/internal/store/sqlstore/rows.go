package sqlstore

import (
	"context"
	"database/sql"
)

// queryAll runs q and reads every row with scan (see collect).
func queryAll[T any](ctx context.Context, s *DB, scan func(scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, scan)
}

// collect reads every row with scan and closes rows before it returns,
// so the caller may run further queries (SQLite, inside a transaction,
// has one connection). No rows give a nil slice.
func collect[T any](rows *sql.Rows, scan func(scanner) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// scanString reads a one-column row of text.
func scanString(r scanner) (string, error) {
	var v string
	err := r.Scan(&v)
	return v, err
}
