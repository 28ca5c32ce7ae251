package firestore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/gcloud"
)

// TestReadsTheEarlierAppsData opens a database holding documents as the
// product's earlier Firebase app wrote them (auto IDs, no createdAt, none
// of this server's key documents) and checks they are read, and that the
// rules the server enforces hold against them: no second "Derecho", no
// second profile for a mail, no second active group for a tutor.
func TestReadsTheEarlierAppsData(t *testing.T) {
	needEmulator(t)
	ctx := context.Background()
	project := newProject("earlier")
	app, err := gcloud.NewApp(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := app.Firestore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	degree, _, err := raw.Collection("degree").Add(ctx, map[string]any{"nombre": "Derecho"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Collection("users").Doc("firebaseUid1").Set(ctx, map[string]any{
		"id": "firebaseUid1", "mail": "docente@utpl.edu.ec", "displayName": "Docente Anterior", "givenName": "Docente",
		"surname": "Anterior", "photo_url": "", "role": "tutor",
	}); err != nil {
		t.Fatal(err)
	}
	group, _, err := raw.Collection("groupStudents").Add(ctx, map[string]any{
		"carrera": degree.ID, "departamento": "Ciencias Jurídicas", "facultad": "Ciencias Sociales", "modalidad": "Distancia",
		"docente": map[string]any{"email": "docente@utpl.edu.ec"}, "status": "activo",
		"estudiantes": []any{map[string]any{"email": "alumno@utpl.edu.ec", "attempts": []any{}}},
	})
	if err != nil {
		t.Fatal(err)
	}

	s := open(t, project)
	if ds, err := s.ListDegrees(ctx); err != nil || len(ds) != 1 || ds[0].ID != degree.ID {
		t.Fatalf("degrees = %+v, %v; want only the earlier app's Derecho (%s)", ds, err, degree.ID)
	}
	if d, err := s.GetDegreeByName(ctx, "Derecho"); err != nil || d.ID != degree.ID {
		t.Fatalf("GetDegreeByName = %+v, %v", d, err)
	}
	if err := s.CreateDegree(ctx, domain.Degree{ID: "derecho", Nombre: "Derecho"}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("a second Derecho: %v", err)
	}

	u, err := s.GetUserByMail(ctx, "Docente@UTPL.edu.ec")
	if err != nil || u.ID != "firebaseUid1" || u.Role != domain.RoleTutor || u.DisplayName != "Docente Anterior" {
		t.Fatalf("GetUserByMail = %+v, %v", u, err)
	}
	dup := domain.User{ID: domain.NewID(), Mail: "docente@utpl.edu.ec", Role: domain.RoleStudent, CreatedAt: time.Now()}
	if err := s.CreateUser(ctx, dup); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("a second profile for the mail: %v", err)
	}
	u.DisplayName = "Docente Renombrado"
	if err := s.UpdateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	snap, err := raw.Collection("users").Doc("firebaseUid1").Get(ctx)
	if err != nil || snap.Data()["displayName"] != "Docente Renombrado" || snap.Data()["id"] != "firebaseUid1" {
		t.Fatalf("after UpdateUser the document is %v, %v (fields the server does not write must stay)", snap.Data(), err)
	}

	g, err := s.ActiveGroupByTutor(ctx, "docente@utpl.edu.ec")
	if err != nil || g.ID != group.ID || g.Carrera != degree.ID || g.Status != domain.GroupActive {
		t.Fatalf("ActiveGroupByTutor = %+v, %v", g, err)
	}
	other := domain.Group{ID: domain.NewID(), Carrera: degree.ID, DocenteEmail: "docente@utpl.edu.ec", Status: domain.GroupActive, CreatedAt: time.Now()}
	if err := s.CreateGroup(ctx, other); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("a second active group beside the earlier app's: %v", err)
	}
	if err := s.FinalizeGroup(ctx, group.ID, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateGroup(ctx, other); err != nil {
		t.Fatalf("a new group once the earlier one is finalized: %v", err)
	}
}
