// Package sqlite is the embedded default store: one SQLite file in WAL mode,
// migrated at open with the numbered migrations embedded in the binary.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/utpl/simulador/backend/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

var dialect = sqlstore.Dialect{
	Name: "sqlite",
	IsUniqueViolation: func(err error) bool {
		var se *sqlite.Error
		if errors.As(err, &se) {
			code := se.Code()
			return code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
		}
		return false
	},
	IsBusy: func(err error) bool {
		var se *sqlite.Error
		return errors.As(err, &se) && (se.Code()&0xff == sqlite3.SQLITE_BUSY || se.Code()&0xff == sqlite3.SQLITE_LOCKED)
	},
}

// readers is how many connections serve reads at once: SQLite in WAL mode
// reads in parallel with the one writer, so enough for every core and
// requests waiting on the network. They stay open (idle), so a query
// never pays for opening a connection (schema parse, pragmas, a cold
// page cache).
func readers() int { return max(8, 4*runtime.GOMAXPROCS(0)) }

// Open opens (creating when missing) the database at path and migrates it.
// ":memory:" is not supported: use a file in a temporary directory.
//
// SQLite writes one transaction at a time. The store uses one connection
// for every write and transaction, and queues the writers in Go in order
// of arrival (sqlstore.Options.SingleWriter) rather than letting several
// connections poll the file's lock, where one could starve past
// busy_timeout (SQLITE_BUSY). Reads outside a transaction use a pool of
// read-only connections, which WAL mode lets run beside the writer.
// busy_timeout still covers another process writing the same file (a
// terminal command).
//
// synchronous=NORMAL commits without waiting for the disk (a crash of the
// process loses nothing; a power cut may lose the last commits), except
// for recording chunks: a chunk is acknowledged to the browser, which then
// deletes its copy, only once the log holding its record was synced
// (sqlstore.Options.SyncChunks), once for all the chunks committed
// meanwhile.
func Open(ctx context.Context, path string) (*sqlstore.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	dsn := func(readOnly bool) string {
		q := url.Values{}
		for _, p := range []string{"journal_mode(WAL)", "busy_timeout(10000)", "foreign_keys(1)", "synchronous(NORMAL)"} {
			q.Add("_pragma", p)
		}
		if readOnly {
			q.Add("_pragma", "query_only(1)")
		} else {
			// BEGIN IMMEDIATE takes the write lock up front, so a
			// transaction never fails with SQLITE_BUSY on lock upgrade
			// when another process writes too.
			q.Set("_txlock", "immediate")
		}
		return "file:" + path + "?" + q.Encode()
	}
	db, err := sql.Open("sqlite", dsn(false))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := migrate(ctx, db, 0); err != nil {
		db.Close()
		return nil, err
	}
	rd, err := sql.Open("sqlite", dsn(true))
	if err != nil {
		db.Close()
		return nil, err
	}
	n := readers()
	rd.SetMaxOpenConns(n)
	rd.SetMaxIdleConns(n)
	rd.SetConnMaxLifetime(0)
	rd.SetConnMaxIdleTime(0)
	return sqlstore.New(db, dialect, sqlstore.Options{
		Reader:          rd,
		SingleWriter:    true,
		CacheStatements: true,
		SyncChunks:      func() error { return syncFile(path + "-wal") },
	}), nil
}

// syncFile flushes a file to the disk. In WAL mode a commit is complete
// once its frames are in the log file: syncing the log makes every commit
// written so far survive a power cut, as synchronous=FULL would at each
// commit. A checkpoint (which may later reuse the log) syncs the log and
// then the database itself.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// migrate applies the migrations up to version (all of them when 0): the
// numbered files embedded from migrations/ and sqlstore's Go migrations.
func migrate(ctx context.Context, db *sql.DB, version int64) error {
	return sqlstore.Migrate(ctx, goose.DialectSQLite3, db, migrations, version)
}
