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
	// IsBusy reports whether err says the database was locked by another
	// writer for longer than it would wait (SQLite's SQLITE_BUSY).
	IsBusy func(error) bool
	// TxOptions are used for InTx.
	TxOptions *sql.TxOptions
}

// Options tune how an engine's connections are used.
type Options struct {
	// Reader, when set, runs the reads made outside a transaction: a pool
	// of connections that never write. The *sql.DB given to New then
	// takes the writes and the transactions.
	Reader *sql.DB
	// SingleWriter queues the writes and transactions in Go, in order of
	// arrival, for an engine that writes one transaction at a time
	// (SQLite). A write that has waited MaxWriteWait, or finds MaxQueue
	// writes ahead of it, is refused with a *domain.BusyError instead of
	// waiting longer (the client retries after a pause).
	SingleWriter bool
	MaxWriteWait time.Duration
	MaxQueue     int
	// CacheStatements keeps each query prepared, once per connection, for
	// a driver that does not cache prepared statements itself.
	CacheStatements bool
	// SyncChunks, when set, makes every commit so far survive a power cut
	// (SQLite: an fsync of the write-ahead log, whose commits are not
	// synced with synchronous=NORMAL). The chunk committer calls it after a
	// batch commits, outside the writer's turn, and acknowledges the batch
	// only once it returned: one sync covers every batch committed before
	// it. nil: every commit is durable already (PostgreSQL).
	SyncChunks func() error
}

// DB is a store.Store backed by a *sql.DB or, inside InTx, a *sql.Tx.
type DB struct {
	db *sql.DB // writes and transactions
	rd *sql.DB // reads outside a transaction (db when there is no reader pool)
	tx *sql.Tx // inside InTx
	d  Dialect
	*shared
}

// shared is what a DB and the DBs of its transactions have in common.
type shared struct {
	opts   Options
	gate   *writeGate // nil: writers do not queue in Go
	wstmts *stmtCache // prepared statements of the writer (nil: none)
	rstmts *stmtCache // and of the readers
	chunks *chunkBatcher
}

var _ store.Store = (*DB)(nil)

// New wraps an open database whose schema is already migrated.
func New(db *sql.DB, d Dialect, opts ...Options) *DB {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	s := &DB{db: db, rd: db, d: d, shared: &shared{opts: o}}
	if o.Reader != nil {
		s.rd = o.Reader
	}
	if o.SingleWriter {
		s.gate = newWriteGate(o.MaxWriteWait, o.MaxQueue)
	}
	if o.CacheStatements {
		s.wstmts = newStmtCache(db)
		s.rstmts = s.wstmts
		if o.Reader != nil {
			s.rstmts = newStmtCache(o.Reader)
		}
	}
	s.chunks = newChunkBatcher(s)
	return s
}

// SQL returns the underlying database (for migrations and backups).
func (s *DB) SQL() *sql.DB { return s.db }

func (s *DB) Ping(ctx context.Context) error { return s.rd.PingContext(ctx) }

func (s *DB) Close() error {
	if s.tx != nil {
		return nil
	}
	s.chunks.close()
	var errs []error
	for _, c := range []*stmtCache{s.wstmts, s.rstmts} {
		if c != nil {
			c.close()
		}
	}
	if s.rd != s.db {
		errs = append(errs, s.rd.Close())
	}
	errs = append(errs, s.db.Close())
	return errors.Join(errs...)
}

func (s *DB) InTx(ctx context.Context, fn func(store.Store) error) error {
	if s.tx != nil {
		return fn(s)
	}
	release, err := s.enterWriter(ctx)
	if err != nil {
		return err
	}
	defer release()
	return s.inTxLocked(ctx, fn)
}

// inTxLocked is InTx for a caller that holds the writer's turn.
func (s *DB) inTxLocked(ctx context.Context, fn func(store.Store) error) error {
	s.wstmts.preparePending(ctx)
	tx, err := s.db.BeginTx(ctx, s.d.TxOptions)
	if err != nil {
		return fmt.Errorf("begin: %w", s.mapErr(err))
	}
	inner := &DB{db: s.db, rd: s.rd, tx: tx, d: s.d, shared: s.shared}
	if err := fn(inner); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", s.mapErr(err))
	}
	return nil
}

// enterWriter waits for the writer's turn (SingleWriter) and returns the
// function that gives it back.
func (s *DB) enterWriter(ctx context.Context) (func(), error) {
	if s.gate == nil {
		return func() {}, nil
	}
	return s.gate.enter(ctx)
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
	q = s.rebind(q)
	if s.tx != nil {
		if st := s.wstmts.get(ctx, q, false); st != nil {
			res, err := s.tx.StmtContext(ctx, st).ExecContext(ctx, args...) //nolint:sqlclosecheck // a transaction's statement is closed with the transaction
			return res, s.mapErr(err)
		}
		res, err := s.tx.ExecContext(ctx, q, args...)
		return res, s.mapErr(err)
	}
	release, err := s.enterWriter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if st := s.wstmts.get(ctx, q, true); st != nil { //nolint:sqlclosecheck // the cache owns its statements and closes them with the DB
		res, err := st.ExecContext(ctx, args...)
		return res, s.mapErr(err)
	}
	res, err := s.db.ExecContext(ctx, q, args...)
	return res, s.mapErr(err)
}

func (s *DB) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	q = s.rebind(q)
	var rows *sql.Rows
	var err error
	switch {
	case s.tx != nil:
		if st := s.wstmts.get(ctx, q, false); st != nil {
			rows, err = s.tx.StmtContext(ctx, st).QueryContext(ctx, args...) //nolint:sqlclosecheck // a transaction's statement is closed with the transaction; the rows go to the caller
		} else {
			rows, err = s.tx.QueryContext(ctx, q, args...)
		}
	default:
		if st := s.rstmts.get(ctx, q, true); st != nil { //nolint:sqlclosecheck // the cache owns its statements and closes them with the DB
			rows, err = st.QueryContext(ctx, args...)
		} else {
			rows, err = s.rd.QueryContext(ctx, q, args...)
		}
	}
	return rows, s.mapErr(err)
}

// queryRow runs a query expected to return at most one row. Its errors
// go through Scan; pass them to mapErr.
func (s *DB) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	q = s.rebind(q)
	if s.tx != nil {
		if st := s.wstmts.get(ctx, q, false); st != nil {
			return s.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...) //nolint:sqlclosecheck // a transaction's statement is closed with the transaction
		}
		return s.tx.QueryRowContext(ctx, q, args...)
	}
	if st := s.rstmts.get(ctx, q, true); st != nil { //nolint:sqlclosecheck // the cache owns its statements and closes them with the DB
		return st.QueryRowContext(ctx, args...)
	}
	return s.rd.QueryRowContext(ctx, q, args...)
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
	if s.d.IsBusy != nil && s.d.IsBusy(err) {
		// Another process held the write lock past busy_timeout (a
		// terminal command, say): nothing was written; try again soon.
		return &domain.BusyError{RetryAfter: 2 * time.Second, Cause: err}
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

// execCount runs a statement and answers how many rows it changed.
func (s *DB) execCount(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := s.exec(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}
