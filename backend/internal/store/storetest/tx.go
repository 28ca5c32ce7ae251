package storetest

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// testTxReadsOwnWrites: inside InTx, fn reads what it wrote earlier in the
// same call, whether it reads by ID, by a unique key (mail, title) or a
// list; a nested InTx joins the transaction; and when fn fails, none of
// it is stored.
func testTxReadsOwnWrites(t *testing.T, s store.Store) {
	before := mustUser(t, s, "antes@utpl.edu.ec", domain.RoleStudent)
	t0 := now()
	old := domain.Session{TokenHash: "tx-old", UserID: before.ID, CreatedAt: t0, LastSeenAt: t0, ExpiresAt: t0.Add(time.Hour)}
	if err := s.CreateSession(ctx, old); err != nil {
		t.Fatal(err)
	}
	c := sampleCase("Antes", "Civil")
	if err := s.CreateCase(ctx, c); err != nil {
		t.Fatal(err)
	}
	g := newGroup(t, s, "nuevo@utpl.edu.ec", "miembro@utpl.edu.ec")
	u := domain.User{ID: domain.NewID(), Mail: "Nuevo@utpl.edu.ec", DisplayName: "Zoila Nueva", Role: domain.RoleTutor, CreatedAt: now()}

	boom := errors.New("boom")
	check := func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	err := s.InTx(ctx, func(tx store.Store) error {
		check("CreateUser", tx.CreateUser(ctx, u))
		if got, err := tx.GetUser(ctx, u.ID); err != nil || got.Mail != "nuevo@utpl.edu.ec" {
			t.Fatalf("GetUser after CreateUser in the transaction = %+v, %v", got, err)
		}
		if got, err := tx.GetUserByMail(ctx, "NUEVO@utpl.edu.ec"); err != nil || got.ID != u.ID {
			t.Fatalf("GetUserByMail after CreateUser = %+v, %v", got, err)
		}
		if got, err := tx.ListUsersByMail(ctx, []string{"nuevo@utpl.edu.ec", "antes@utpl.edu.ec"}); err != nil || len(got) != 2 {
			t.Fatalf("ListUsersByMail after CreateUser = %+v, %v", got, err)
		}
		check("SetPasswordHash", tx.SetPasswordHash(ctx, u.ID, "$argon2id$tx"))
		if h, err := tx.PasswordHash(ctx, u.ID); err != nil || h != "$argon2id$tx" {
			t.Fatalf("PasswordHash after SetPasswordHash = %q, %v", h, err)
		}
		// A change moves a user from one list to another.
		b := before
		b.Role = domain.RoleTutor
		check("UpdateUser", tx.UpdateUser(ctx, b))
		if got, err := tx.ListUsersByRole(ctx, domain.RoleStudent); err != nil || len(got) != 0 {
			t.Fatalf("students after the only one became a tutor = %+v, %v", got, err)
		}
		tutors, err := tx.ListUsersByRole(ctx, domain.RoleTutor)
		if err != nil || len(tutors) != 2 || tutors[0].ID != before.ID || tutors[1].ID != u.ID {
			t.Fatalf("tutors = %+v, %v; want Ana Pérez then Zoila Nueva", tutors, err)
		}
		// A deleted document is gone at once.
		check("DeleteSession", tx.DeleteSession(ctx, old.TokenHash))
		if _, err := tx.GetSession(ctx, old.TokenHash); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("GetSession after DeleteSession: %v", err)
		}
		// A renamed case is found by its new title only.
		c.Title = "Después"
		check("UpdateCase", tx.UpdateCase(ctx, c))
		if got, err := tx.GetCaseByTitle(ctx, "derecho", "Después"); err != nil || got.ID != c.ID {
			t.Fatalf("GetCaseByTitle(new title) = %+v, %v", got, err)
		}
		if _, err := tx.GetCaseByTitle(ctx, "derecho", "Antes"); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("GetCaseByTitle(old title): %v", err)
		}
		if got, err := tx.ListCases(ctx, store.CaseFilter{DegreeID: "derecho"}); err != nil || len(got) != 1 || got[0].Title != "Después" {
			t.Fatalf("ListCases after UpdateCase = %+v, %v", got, err)
		}
		// A nested call joins: what it writes is seen outside it.
		check("nested InTx", tx.InTx(ctx, func(inner store.Store) error {
			if err := inner.SetMeta(ctx, "tx", "1"); err != nil {
				return err
			}
			return inner.CreateGroup(ctx, g)
		}))
		if v, err := tx.GetMeta(ctx, "tx"); err != nil || v != "1" {
			t.Fatalf("GetMeta after a nested SetMeta = %q, %v", v, err)
		}
		if got, err := tx.ActiveGroupByTutor(ctx, "nuevo@utpl.edu.ec"); err != nil || got.ID != g.ID || len(got.Estudiantes) != 1 {
			t.Fatalf("ActiveGroupByTutor after a nested CreateGroup = %+v, %v", got, err)
		}
		if ok, err := tx.IsActiveGroupMember(ctx, "miembro@utpl.edu.ec"); err != nil || !ok {
			t.Fatalf("IsActiveGroupMember after CreateGroup = %v, %v", ok, err)
		}
		if n, err := tx.AddGroupStudents(ctx, g.ID, []domain.GroupStudent{{Email: "otro@utpl.edu.ec", AddedAt: now()}}); err != nil || n != 1 {
			t.Fatalf("AddGroupStudents = %d, %v", n, err)
		}
		if got, err := tx.GetGroup(ctx, g.ID); err != nil || len(got.Estudiantes) != 2 {
			t.Fatalf("GetGroup after AddGroupStudents = %+v, %v", got, err)
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("InTx = %v, want the function's error", err)
	}

	// Nothing of the failed transaction was stored.
	if _, err := s.GetUserByMail(ctx, "nuevo@utpl.edu.ec"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("user of a failed transaction: %v", err)
	}
	if got, _ := s.GetUser(ctx, before.ID); got.Role != domain.RoleStudent {
		t.Fatalf("update of a failed transaction: %+v", got)
	}
	if _, err := s.GetSession(ctx, old.TokenHash); err != nil {
		t.Fatalf("delete of a failed transaction: %v", err)
	}
	if got, err := s.GetCaseByTitle(ctx, "derecho", "Antes"); err != nil || got.ID != c.ID {
		t.Fatalf("case after a failed transaction = %+v, %v", got, err)
	}
	if _, err := s.GetMeta(ctx, "tx"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("nested write of a failed transaction: %v", err)
	}
	if _, err := s.GetGroup(ctx, g.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("group of a failed transaction: %v", err)
	}

	// A transaction that succeeds stores all of it.
	err = s.InTx(ctx, func(tx store.Store) error {
		if err := tx.CreateUser(ctx, u); err != nil {
			return err
		}
		return tx.SetPasswordHash(ctx, u.ID, "$argon2id$ok")
	})
	if err != nil {
		t.Fatal(err)
	}
	if h, err := s.PasswordHash(ctx, u.ID); err != nil || h != "$argon2id$ok" {
		t.Fatalf("after commit: PasswordHash = %q, %v", h, err)
	}
	if got, err := s.ListUsersByRole(ctx, domain.RoleTutor); err != nil || !slices.ContainsFunc(got, func(x domain.User) bool { return x.ID == u.ID }) {
		t.Fatalf("after commit: tutors = %+v, %v", got, err)
	}
}
