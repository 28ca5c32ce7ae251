package migrate_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/migrate"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
)

func side(t *testing.T, name string) migrate.Side {
	t.Helper()
	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), filepath.Join(dir, "simulador.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m, err := media.NewDir(filepath.Join(dir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	return migrate.Side{Name: name, Store: st, MediaName: "directory " + dir, Media: m}
}

// A claim given up at the source since the last run (a key retired by a
// rotation, a group finalized) is freed at the destination before the
// record that took it over is written, whatever the order of their keys:
// a second run with --overwrite goes through.
func TestRerunAfterClaimsMoved(t *testing.T) {
	ctx := context.Background()
	from, to := side(t, "origen"), side(t, "destino")
	src := from.Store
	at := time.Now().UTC().Truncate(time.Millisecond)
	if err := src.AddLTIKey(ctx, domain.LTIKey{ID: "z-vieja", PrivateKeyPEM: "pem-vieja", CreatedAt: at}, at); err != nil {
		t.Fatal(err)
	}
	group := func(id string) domain.Group {
		return domain.Group{ID: id, Carrera: "derecho", DocenteEmail: "tutora@utpl.edu.ec", Status: domain.GroupActive, CreatedAt: at,
			Estudiantes: []domain.GroupStudent{{Email: "ana@utpl.edu.ec", Name: "Ana", AddedAt: at}}}
	}
	if err := src.CreateGroup(ctx, group("z-grupo-viejo")); err != nil {
		t.Fatal(err)
	}
	opts := migrate.Options{From: from, To: to}
	if _, err := migrate.Run(ctx, opts); err != nil {
		t.Fatal(err)
	}

	// The pilot goes on: the key is rotated, the group finalized and a
	// new one made with the same student; both new records' keys come first.
	later := at.Add(time.Minute)
	if err := src.AddLTIKey(ctx, domain.LTIKey{ID: "a-nueva", PrivateKeyPEM: "pem-nueva", CreatedAt: later}, later); err != nil {
		t.Fatal(err)
	}
	if err := src.FinalizeGroup(ctx, "z-grupo-viejo", later); err != nil {
		t.Fatal(err)
	}
	if err := src.CreateGroup(ctx, group("a-grupo-nuevo")); err != nil {
		t.Fatal(err)
	}
	opts.Overwrite = true
	rep, err := migrate.Run(ctx, opts)
	if err != nil {
		t.Fatalf("second run: %v (%s)", err, strings.Join(rep.Problems, "; "))
	}
	dst := to.Store
	if g, err := dst.ActiveGroupOfStudent(ctx, "ana@utpl.edu.ec"); err != nil || g.ID != "a-grupo-nuevo" {
		t.Errorf("the student's active group at the destination = %+v, %v", g, err)
	}
	if keys, err := dst.ListLTIKeys(ctx); err != nil || len(keys) != 2 || keys[0].ID != "a-nueva" || keys[0].RetiredAt != nil || keys[1].RetiredAt == nil {
		t.Errorf("keys at the destination = %+v, %v", keys, err)
	}
}
