package storetest

import (
	"database/sql"
	"errors"
	"testing"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// SeedBeforeLimits writes, with plain SQL that SQLite and PostgreSQL both
// run, data as it could stand before migration 00010 (schema version 7):
// a student in two active groups (and in a finalized one), and recorded
// chunks. CheckAfterLimits checks what the migration made of it.
func SeedBeforeLimits(t *testing.T, db *sql.DB) {
	t.Helper()
	for _, q := range []string{
		`INSERT INTO users (id, mail, role, created_at) VALUES ('s1', 'doble@utpl.edu.ec', 'estudiante', 1)`,
		`INSERT INTO groups (id, carrera, docente_email, status, created_at) VALUES
			('g-old', 'derecho', 'antiguo@utpl.edu.ec', 'activo', 1000),
			('g-new', 'derecho', 'nuevo@utpl.edu.ec', 'activo', 2000),
			('g-fin', 'derecho', 'final@utpl.edu.ec', 'finalizado', 500)`,
		`INSERT INTO group_students (group_id, email, name, added_at) VALUES
			('g-old', 'doble@utpl.edu.ec', '', 1000), ('g-old', 'solo@utpl.edu.ec', '', 1000),
			('g-new', 'doble@utpl.edu.ec', '', 2000),
			('g-fin', 'doble@utpl.edu.ec', '', 500), ('g-fin', 'antes@utpl.edu.ec', '', 500)`,
		`INSERT INTO attempts (id, student_id, student_email, group_id, tutor_email, degree_id, case_id, case_title, area, mode, status, data, created_at, version)
			VALUES ('a1', 's1', 'doble@utpl.edu.ec', 'g-old', 'antiguo@utpl.edu.ec', 'derecho', 'c1', 'Caso', 'Civil', 'entrenamiento', 'finished', '{}', 1500, 1)`,
		`INSERT INTO recordings (attempt_id, id, phase, mime_type, created_at) VALUES ('a1', 'r1', 1, 'audio/webm', 1500), ('a1', 'r2', 3, 'audio/webm', 1600)`,
		`INSERT INTO recording_chunks (attempt_id, recording_id, seq, bytes, sha256) VALUES
			('a1', 'r1', 0, 1000, 'h0'), ('a1', 'r1', 1, 500, 'h1'), ('a1', 'r2', 0, 250, 'h2')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// CheckAfterLimits checks s, migrated after SeedBeforeLimits: the student
// is a member of the newest active group only and was taken out of the
// older one (their attempt keeps it), the others are members of their
// group, and the chunks count as the student's storage.
func CheckAfterLimits(t *testing.T, s store.Store) {
	t.Helper()
	if g, err := s.ActiveGroupOfStudent(ctx, "doble@utpl.edu.ec"); err != nil || g.ID != "g-new" {
		t.Fatalf("ActiveGroupOfStudent(doble) = %+v, %v; want the newest group g-new", g, err)
	}
	old, err := s.GetGroup(ctx, "g-old")
	if err != nil || old.HasStudent("doble@utpl.edu.ec") || !old.HasStudent("solo@utpl.edu.ec") {
		t.Fatalf("the older group = %+v, %v; want solo without doble", old.Estudiantes, err)
	}
	if fin, _ := s.GetGroup(ctx, "g-fin"); len(fin.Estudiantes) != 2 {
		t.Fatalf("a finalized group's history changed: %+v", fin.Estudiantes)
	}
	for mail, want := range map[string]bool{"solo@utpl.edu.ec": true, "antes@utpl.edu.ec": false} {
		if ok, err := s.IsActiveGroupMember(ctx, mail); err != nil || ok != want {
			t.Fatalf("IsActiveGroupMember(%s) = %v, %v; want %v", mail, ok, err, want)
		}
	}
	if a, err := s.GetAttempt(ctx, "a1"); err != nil || a.GroupID != "g-old" {
		t.Fatalf("the attempt = %+v, %v; want it to keep g-old", a.GroupID, err)
	}
	if used, err := s.StorageUsed(ctx, "s1"); err != nil || used != 1750 {
		t.Fatalf("StorageUsed = %d, %v; want 1750", used, err)
	}
	g := domain.Group{ID: "g-other", Carrera: "derecho", DocenteEmail: "otro@utpl.edu.ec", Status: domain.GroupActive, CreatedAt: now(),
		Estudiantes: []domain.GroupStudent{{Email: "solo@utpl.edu.ec", AddedAt: now()}}}
	var taken *store.MembersTakenError
	if err := s.CreateGroup(ctx, g); !errors.As(err, &taken) {
		t.Fatalf("a new group with a member of g-old: %v, want MembersTakenError", err)
	}
}
