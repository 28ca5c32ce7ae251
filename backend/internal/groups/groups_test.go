package groups

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
)

// failingLookup is a store whose "mail in [...]" lookup fails.
type failingLookup struct{ store.Store }

func (failingLookup) ListUsersByMail(context.Context, []string) ([]domain.User, error) {
	return nil, errors.New("lookup failed")
}

func TestMembersFallBackToEmailsWhenLookupFails(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.CreateUser(ctx, domain.User{ID: "u", Mail: "a@utpl.edu.ec", DisplayName: "Ana", Role: domain.RoleStudent, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	g := domain.Group{Estudiantes: []domain.GroupStudent{{Email: "a@utpl.edu.ec"}, {Email: "b@utpl.edu.ec"}}}

	members, unavailable := NewService(st).Members(ctx, g)
	if unavailable || !members[0].Registered || members[0].User.DisplayName != "Ana" || members[1].Registered {
		t.Fatalf("members = %+v, unavailable %v", members, unavailable)
	}

	members, unavailable = NewService(failingLookup{st}).Members(ctx, g)
	if !unavailable || len(members) != 2 || members[0].Email != "a@utpl.edu.ec" || members[0].User != nil {
		t.Fatalf("fallback members = %+v, unavailable %v", members, unavailable)
	}
}

func TestFoldName(t *testing.T) {
	for in, want := range map[string]string{"Derecho": "derecho", "  DERECHO ": "derecho", "Psicología  Clínica": "psicologia clinica"} {
		if got := foldName(in); got != want {
			t.Errorf("foldName(%q) = %q, want %q", in, got, want)
		}
	}
}
