// Package sqlstore implements store.Store over database/sql. The SQLite and
// PostgreSQL adapters share it and differ only in their Dialect and
// migrations, so the rules of persistence are written once.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// Dialect captures what differs between SQL engines.
type Dialect struct {
	Name string
	// Numbered reports whether placeholders are $1, $2... instead of ?.
	Numbered bool
	// IsUniqueViolation reports whether err is a unique-constraint failure.
	IsUniqueViolation func(error) bool
	// TxOptions are used for InTx.
	TxOptions *sql.TxOptions
}

type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// DB is a store.Store backed by a *sql.DB or, inside InTx, a *sql.Tx.
type DB struct {
	db *sql.DB
	q  querier
	d  Dialect
	tx bool
}

var _ store.Store = (*DB)(nil)

// New wraps an open database whose schema is already migrated.
func New(db *sql.DB, d Dialect) *DB {
	return &DB{db: db, q: db, d: d}
}

// SQL returns the underlying database (for migrations and backups).
func (s *DB) SQL() *sql.DB { return s.db }

func (s *DB) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

func (s *DB) Close() error {
	if s.tx {
		return nil
	}
	return s.db.Close()
}

func (s *DB) InTx(ctx context.Context, fn func(store.Store) error) error {
	if s.tx {
		return fn(s)
	}
	tx, err := s.db.BeginTx(ctx, s.d.TxOptions)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	inner := &DB{db: s.db, q: tx, d: s.d, tx: true}
	if err := fn(inner); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// rebind turns ? placeholders into $n for numbered dialects. Queries in this
// package never contain a literal question mark.
func (s *DB) rebind(q string) string {
	if !s.d.Numbered {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (s *DB) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	res, err := s.q.ExecContext(ctx, s.rebind(q), args...)
	return res, s.mapErr(err)
}

func (s *DB) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	rows, err := s.q.QueryContext(ctx, s.rebind(q), args...)
	return rows, s.mapErr(err)
}

func (s *DB) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	return s.q.QueryRowContext(ctx, s.rebind(q), args...)
}

func (s *DB) mapErr(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return domain.ErrNotFound
	}
	if s.d.IsUniqueViolation != nil && s.d.IsUniqueViolation(err) {
		return fmt.Errorf("%w: %v", domain.ErrConflict, err)
	}
	return err
}

// placeholders returns "?, ?, ?" for n arguments.
func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMS(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

func nullMS(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMilli()
}

func fromNullMS(v sql.NullInt64) *time.Time {
	if !v.Valid {
		return nil
	}
	t := fromMS(v.Int64)
	return &t
}

func rowsAffected(res sql.Result) (int64, error) {
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	return n, nil
}
