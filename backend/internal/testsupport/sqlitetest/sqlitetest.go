// Package sqlitetest opens the real store for tests: a fresh, migrated
// SQLite database in the test's temporary directory.
package sqlitetest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/utpl/simulador/backend/internal/store/sqlite"
	"github.com/utpl/simulador/backend/internal/store/sqlstore"
)

// Open returns a new database, closed when the test ends.
func Open(tb testing.TB) *sqlstore.DB {
	tb.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(tb.TempDir(), "test.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return st
}
