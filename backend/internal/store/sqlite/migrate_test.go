package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/utpl/simulador/backend/internal/store/sqlstore"
	"github.com/utpl/simulador/backend/internal/store/storetest"
)

// TestLimitsMigrationKeepsTheNewestMembership migrates data from before
// exclusive memberships and storage accounting (schema 7) to the newest.
func TestLimitsMigrationKeepsTheNewestMembership(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "m.db")+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := migrate(ctx, db, 7); err != nil {
		t.Fatal(err)
	}
	storetest.SeedBeforeLimits(t, db)
	if err := migrate(ctx, db, 0); err != nil {
		t.Fatal(err)
	}
	storetest.CheckAfterLimits(t, sqlstore.New(db, dialect))
}
