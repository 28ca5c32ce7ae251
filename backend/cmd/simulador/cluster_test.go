package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/utpl/simulador/backend/internal/store"
)

// freshPostgres returns the URL of a new, empty PostgreSQL database on the
// test server (TEST_DATABASE_URL), or skips.
func freshPostgres(t *testing.T) string {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		t.Skip("TEST_DATABASE_URL not set: PostgreSQL skipped (scripts/with-postgres.sh starts a server)")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	name := "cluster_" + strings.ToLower(rand.Text()[:10])
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = admin.Exec("DROP DATABASE " + name + " WITH (FORCE)") })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

// TestInstancesStartingAtOnceSeedOnce: instances of a deployment that
// scales out start at the same moment on an empty store. Both must start
// (migrations take turns) and the demo case bank must be loaded once.
func TestInstancesStartingAtOnceSeedOnce(t *testing.T) {
	shapes := map[string]func(t *testing.T){
		"postgres": func(t *testing.T) { t.Setenv("DATABASE_URL", freshPostgres(t)) },
		"firestore": func(t *testing.T) {
			host := os.Getenv("TEST_FIRESTORE_EMULATOR_HOST")
			if host == "" {
				t.Skip("TEST_FIRESTORE_EMULATOR_HOST not set: Firestore skipped (scripts/with-firestore.sh starts the emulator)")
			}
			t.Setenv("FIRESTORE_EMULATOR_HOST", host)
			t.Setenv("DATABASE_URL", "firestore://demo-seed-"+strings.ToLower(rand.Text()[:8]))
		},
	}
	for name, setup := range shapes {
		t.Run(name, func(t *testing.T) {
			cliEnv(t)
			setup(t)
			const instances = 3
			apps := make([]*app, instances)
			errs := make([]error, instances)
			var wg sync.WaitGroup
			start := make(chan struct{})
			for i := range instances {
				wg.Go(func() {
					<-start
					var log strings.Builder
					apps[i], errs[i] = newApp(context.Background(), &log, false)
				})
			}
			close(start)
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("instance %d did not start: %v", i, err)
				}
				defer apps[i].Close()
			}
			cases, err := apps[0].store.ListCases(context.Background(), store.CaseFilter{})
			if err != nil {
				t.Fatal(err)
			}
			titles := map[string]int{}
			for _, c := range cases {
				titles[c.Title]++
			}
			if len(cases) < 93 || len(titles) != len(cases) {
				t.Fatalf("%d demo cases with %d distinct titles after %d simultaneous starts, want each of the demo bank's cases once", len(cases), len(titles), instances)
			}
			if _, err := apps[1].store.GetMeta(context.Background(), "demo_bank_v5"); err != nil {
				t.Fatal(fmt.Errorf("the demo bank marker: %w", err))
			}
		})
	}
}
