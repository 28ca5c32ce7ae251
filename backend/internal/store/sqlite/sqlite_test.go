package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
	"github.com/utpl/simulador/backend/internal/store/storetest"
)

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	})
}

func TestReopenKeepsData(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "re.db")
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = sqlite.Open(ctx, path) // migrations are idempotent
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if ds, err := s.ListDegrees(ctx); err != nil || len(ds) != 1 {
		t.Fatalf("degrees after reopen = %v, %v", ds, err)
	}
}
