package firestore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/gcloud"
	"github.com/utpl/simulador/backend/internal/store"
)

// TestDataFromBeforeMembershipsAndQuotas opens a database written before
// activeMembers and storageUsage existed: a student in two active groups
// stays a member of the newest only, and a student's recordings count as
// their storage.
func TestDataFromBeforeMembershipsAndQuotas(t *testing.T) {
	needEmulator(t)
	ctx := context.Background()
	project := newProject("before")
	app, err := gcloud.NewApp(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := app.Firestore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	t0 := time.Now().UTC().Truncate(time.Millisecond)
	group := func(id, tutor, status string, created time.Time, emails ...string) {
		t.Helper()
		ref := raw.Collection("groupStudents").Doc(id)
		if _, err := ref.Set(ctx, map[string]any{"carrera": "derecho", "departamento": "", "facultad": "", "modalidad": "",
			"docente": map[string]any{"email": tutor}, "status": status, "createdAt": created, "finalizedAt": nil}); err != nil {
			t.Fatal(err)
		}
		for _, e := range emails {
			if _, err := ref.Collection("estudiantes").Doc(e).Set(ctx, map[string]any{"email": e, "name": "", "addedAt": created, "attempts": []any{}}); err != nil {
				t.Fatal(err)
			}
		}
	}
	group("g-old", "antiguo@utpl.edu.ec", "activo", t0.Add(-time.Hour), "doble@utpl.edu.ec", "solo@utpl.edu.ec")
	group("g-new", "nuevo@utpl.edu.ec", "activo", t0, "doble@utpl.edu.ec")
	group("g-fin", "final@utpl.edu.ec", "finalizado", t0.Add(-2*time.Hour), "antes@utpl.edu.ec")
	attempt := raw.Collection("attempts").Doc("a1")
	if _, err := attempt.Set(ctx, map[string]any{"studentId": "s1", "studentEmail": "doble@utpl.edu.ec", "groupId": "g-old", "createdAt": t0}); err != nil {
		t.Fatal(err)
	}
	for id, bytes := range map[string]int64{"r1": 1500, "r2": 250} {
		if _, err := attempt.Collection("recordings").Doc(id).Set(ctx, map[string]any{"phase": int64(1), "bytes": bytes, "chunks": int64(1),
			"complete": true, "deleted": false, "createdAt": t0}); err != nil {
			t.Fatal(err)
		}
	}

	s := open(t, project)
	if g, err := s.ActiveGroupOfStudent(ctx, "doble@utpl.edu.ec"); err != nil || g.ID != "g-new" {
		t.Fatalf("ActiveGroupOfStudent(doble) = %+v, %v; want the newest group g-new", g, err)
	}
	old, err := s.GetGroup(ctx, "g-old")
	if err != nil || old.HasStudent("doble@utpl.edu.ec") || !old.HasStudent("solo@utpl.edu.ec") {
		t.Fatalf("the older group = %+v, %v; want solo without doble", old.Estudiantes, err)
	}
	for mail, want := range map[string]bool{"solo@utpl.edu.ec": true, "antes@utpl.edu.ec": false} {
		if ok, err := s.IsActiveGroupMember(ctx, mail); err != nil || ok != want {
			t.Fatalf("IsActiveGroupMember(%s) = %v, %v; want %v", mail, ok, err, want)
		}
	}
	g := domain.Group{ID: "g-other", Carrera: "derecho", DocenteEmail: "otro@utpl.edu.ec", Status: domain.GroupActive, CreatedAt: t0,
		Estudiantes: []domain.GroupStudent{{Email: "solo@utpl.edu.ec", AddedAt: t0}}}
	var taken *store.MembersTakenError
	if err := s.CreateGroup(ctx, g); !errors.As(err, &taken) {
		t.Fatalf("a new group with a member of g-old: %v, want MembersTakenError", err)
	}
	if used, err := s.StorageUsed(ctx, "s1"); err != nil || used != 1750 {
		t.Fatalf("StorageUsed = %d, %v; want 1750 (the recordings stored before)", used, err)
	}
	// A second start finds the work done.
	if s2 := open(t, project); s2 == nil {
		t.Fatal("reopen failed")
	}
	if g, err := s.ActiveGroupOfStudent(ctx, "doble@utpl.edu.ec"); err != nil || g.ID != "g-new" {
		t.Fatalf("after a second start: %+v, %v", g, err)
	}
}
