package movein_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/movein"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/postgres"
	"github.com/utpl/simulador/backend/internal/testsupport/earlierapp"
	"github.com/utpl/simulador/backend/internal/testsupport/sqlitetest"
)

func postgresStore(t *testing.T) store.Store {
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		t.Skip("TEST_DATABASE_URL not set: PostgreSQL skipped (scripts/with-postgres.sh starts a server)")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	name := "movein_" + strings.ToLower(rand.Text()[:10])
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP DATABASE " + name + " WITH (FORCE)")
		admin.Close()
	})
	u, _ := url.Parse(base)
	u.Path = "/" + name
	st, err := postgres.Open(context.Background(), u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestImportIntoTheSQLStores imports the earlier app's Authentication
// export into SQLite and PostgreSQL (no profiles there yet: each account
// gets one with role estudiante) and signs in with the old passwords,
// which are rehashed with argon2id; a dry run and a second import change
// nothing.
func TestImportIntoTheSQLStores(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) store.Store{
		"sqlite":   func(t *testing.T) store.Store { return sqlitetest.Open(t) },
		"postgres": postgresStore,
	} {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			ctx := context.Background()
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			exp, err := movein.ReadAuthExport(bytes.NewReader(earlierapp.AuthExport))
			if err != nil {
				t.Fatal(err)
			}
			dry, err := movein.ImportFirebase(ctx, st, exp, earlierapp.Params(), true, log, time.Now())
			if err != nil || dry.Created != 9 {
				t.Fatalf("dry run: %+v, %v", dry, err)
			}
			if _, err := st.GetUser(ctx, earlierapp.Ana.UID); err == nil {
				t.Fatal("a dry run created a profile")
			}
			rep, err := movein.ImportFirebase(ctx, st, exp, earlierapp.Params(), false, log, time.Now())
			if err != nil || rep.Created != 9 || rep.Passwords != 6 || rep.MicrosoftOnly != 2 || rep.Disabled != 1 {
				t.Fatalf("import: %+v, %v", rep, err)
			}
			again, err := movein.ImportFirebase(ctx, st, exp, earlierapp.Params(), false, log, time.Now())
			if err != nil || again.Unchanged != 6 || again.Created != 0 || again.Passwords != 0 {
				t.Fatalf("second import: %+v, %v", again, err)
			}
			u, err := st.GetUser(ctx, earlierapp.Ana.UID)
			if err != nil || u.Role != domain.RoleStudent || u.Mail != earlierapp.Ana.Mail || u.DisplayName != earlierapp.Ana.Name ||
				!u.CreatedAt.Equal(time.UnixMilli(1_690_000_000_000+2*86_400_000)) {
				t.Fatalf("Ana's profile: %+v, %v", u, err)
			}
			svc := auth.NewService(st, auth.NewSessions(st, time.Hour, 24*time.Hour), nil)
			for _, acc := range []earlierapp.Account{earlierapp.Ana, earlierapp.Sample} {
				before, _ := st.PasswordHash(ctx, acc.UID)
				if !auth.IsFirebaseCredential(before) {
					t.Fatalf("%s's stored credential: %.30q", acc.Mail, before)
				}
				if _, err := svc.LoginPassword(ctx, strings.ToUpper(acc.Mail), acc.Password, "203.0.113.7"); err != nil {
					t.Fatalf("%s with the old password: %v", acc.Mail, err)
				}
				after, _ := st.PasswordHash(ctx, acc.UID)
				if ok, err := auth.VerifyPassword(after, acc.Password); err != nil || !ok {
					t.Fatalf("%s's credential after sign-in: %.30q, %v", acc.Mail, after, err)
				}
			}
			if _, err := svc.LoginPassword(ctx, earlierapp.Diego.Mail, earlierapp.Diego.Password, "203.0.113.7"); err == nil {
				t.Error("a disabled account signed in")
			}
		})
	}
}
