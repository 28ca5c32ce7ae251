// Package sqlite is the embedded default store: one SQLite file in WAL mode,
// migrated at open with the numbered migrations embedded in the binary.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

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
}

// Open opens (creating when missing) the database at path and migrates it.
// ":memory:" is not supported: use a file in a temporary directory.
func Open(ctx context.Context, path string) (*sqlstore.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return nil, fmt.Errorf("create data directory: %w", err)
	}
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "busy_timeout(10000)", "foreign_keys(1)", "synchronous(NORMAL)"} {
		q.Add("_pragma", p)
	}
	// BEGIN IMMEDIATE takes the write lock up front, so two writers queue on
	// busy_timeout instead of failing with SQLITE_BUSY on lock upgrade.
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if err := migrate(ctx, db, 0); err != nil {
		db.Close()
		return nil, err
	}
	return sqlstore.New(db, dialect), nil
}

// migrate applies the migrations up to version (all of them when 0): the
// numbered files embedded from migrations/ and sqlstore's Go migrations.
func migrate(ctx context.Context, db *sql.DB, version int64) error {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, sub, goose.WithGoMigrations(sqlstore.GoMigrations()...))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if version > 0 {
		_, err = p.UpTo(ctx, version)
	} else {
		_, err = p.Up(ctx)
	}
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
