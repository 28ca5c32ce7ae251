package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"testing"

	"github.com/utpl/simulador/backend/internal/store/sqlstore"
	"github.com/utpl/simulador/backend/internal/store/storetest"
)

// TestLimitsMigrationKeepsTheNewestMembership migrates data from before
// exclusive memberships and storage accounting (schema 7) to the newest.
func TestLimitsMigrationKeepsTheNewestMembership(t *testing.T) {
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		t.Skip("TEST_DATABASE_URL not set: PostgreSQL migration test skipped")
	}
	ctx := context.Background()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("migrate_limits_%d", os.Getpid())
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if _, err := admin.Exec("DROP DATABASE " + name + " WITH (FORCE)"); err != nil {
			t.Log(err)
		}
	}()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	db, err := sql.Open("pgx", u.String())
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
