package postgres_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/postgres"
	"github.com/utpl/simulador/backend/internal/store/storetest"
)

var dbCounter atomic.Int64

// TestContract runs the store contract against PostgreSQL when
// TEST_DATABASE_URL is set (make test-go starts a throwaway server).
// Each subtest gets a fresh database.
func TestContract(t *testing.T) {
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		t.Skip("TEST_DATABASE_URL not set: PostgreSQL contract skipped")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	storetest.Run(t, func(t *testing.T) store.Store {
		name := fmt.Sprintf("contract_%d_%d", os.Getpid(), dbCounter.Add(1))
		if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		u.Path = "/" + name
		s, err := postgres.Open(context.Background(), u.String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			s.Close()
			if _, err := admin.Exec("DROP DATABASE " + name + " WITH (FORCE)"); err != nil && !strings.Contains(err.Error(), "does not exist") {
				t.Logf("drop %s: %v", name, err)
			}
		})
		return s
	})
}
