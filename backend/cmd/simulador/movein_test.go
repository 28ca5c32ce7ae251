package main

import (
	"context"
	"crypto/rand"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cloud.google.com/go/firestore"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/gcloud"
	"github.com/utpl/simulador/backend/internal/testsupport/earlierapp"
	"github.com/utpl/simulador/backend/internal/testsupport/gcstest"
)

// earlierAppOnEmulator writes the earlier app's fixture into a new project
// of the Firestore emulator and points the commands at it.
func earlierAppOnEmulator(t *testing.T) string {
	t.Helper()
	host := os.Getenv("TEST_FIRESTORE_EMULATOR_HOST")
	if host == "" {
		t.Skip("TEST_FIRESTORE_EMULATOR_HOST not set: moving in from Firestore skipped (scripts/with-firestore.sh starts the emulator)")
	}
	cliEnv(t)
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	project := "demo-movein-" + strings.ToLower(rand.Text()[:8])
	if err := earlierapp.Write(context.Background(), earlierProject(t, project)); err != nil {
		t.Fatal(err)
	}
	return project
}

// earlierProject is a Firestore client of the earlier app's project on the
// emulator, as that app (or the Console) writes it, closed at the test's end.
func earlierProject(t *testing.T, project string) *firestore.Client {
	t.Helper()
	ctx := context.Background()
	app, err := gcloud.NewApp(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := app.Firestore(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return raw
}

// deleteEarlierDoc deletes a document of the earlier app's project, as an
// operator would in the Firebase Console.
func deleteEarlierDoc(t *testing.T, project, collection, id string) {
	t.Helper()
	if _, err := earlierProject(t, project).Collection(collection).Doc(id).Delete(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func importArgs(file string, extra ...string) []string {
	return append([]string{"users", "import-firebase", file, "--salt-separator", earlierapp.SaltSeparator,
		"--rounds", "8", "--mem-cost", "14"}, extra...)
}

// TestMovingInFromTheEarlierApp: adopt and import-firebase on the earlier
// app's project, then the journeys: tutors see their groups and students,
// a student of an active group may enter the test, imported passwords sign
// in and are rehashed, Microsoft-only and disabled accounts are as they
// were; a second adopt and import change nothing.
func TestMovingInFromTheEarlierApp(t *testing.T) {
	project := earlierAppOnEmulator(t)
	from := "firestore://" + project
	export := writeFile(t, "users.json", string(earlierapp.AuthExport))

	dry := must(t, "adopt", "--from", from, "--dry-run")
	if !strings.Contains(dry.stdout, "students copied from the lists       6") || !strings.Contains(dry.stdout, "Would write") {
		t.Errorf("dry run:\n%s", dry.stdout)
	}
	r := must(t, "adopt", "--from", from)
	for _, want := range []string{"older active groups finalized        1", "6 left as they are, with the reason:",
		"is also the mail of", "differs only in case or accents", "has a newer active group", "cases loaded"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("adopt does not say %q:\n%s", want, r.stdout)
		}
	}
	if r := must(t, "adopt", "--from", from); !strings.Contains(r.stdout, "Nothing to change") {
		t.Errorf("a second adopt:\n%s", r.stdout)
	}

	t.Setenv("DATABASE_URL", from)
	r = mustIn(t, earlierapp.SignerKey+"\n", importArgs(export)...)
	for _, want := range []string{"9 accounts", "matched to a profile by uid          8", "profiles created (estudiante)        1",
		"passwords imported                   6", "without a password (Microsoft)       2", "disabled (stay disabled)             1"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("import does not say %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout+r.stderr, earlierapp.SignerKey) {
		t.Error("the hash key was printed")
	}
	keyFile := writeFile(t, "clave", earlierapp.SignerKey+"\n")
	if r := must(t, importArgs(export, "--hash-key-file", keyFile)...); !strings.Contains(r.stdout, "passwords already imported           6") {
		t.Errorf("a second import:\n%s", r.stdout)
	}

	checkMovedIn(t)

	// Nothing moved since: a second adopt still finds nothing to do.
	if r := must(t, "adopt", "--from", from); !strings.Contains(r.stdout, "Nothing to change") {
		t.Errorf("adopt after the journeys:\n%s", r.stdout)
	}
}

// TestMovingInToOneMachine: a faculty may leave Firebase for one machine.
// After adopt, migrate-data copies the earlier app's project into SQLite
// and into PostgreSQL (whose fresh schema holds its own seed degree
// Derecho, which gives way to the earlier app's), the accounts are
// imported there, and the same journeys work.
func TestMovingInToOneMachine(t *testing.T) {
	project := earlierAppOnEmulator(t)
	from := "firestore://" + project
	must(t, "adopt", "--from", from)
	gcstest.New(t, "grabaciones-anteriores") // the earlier app kept no audio
	export := writeFile(t, "users.json", string(earlierapp.AuthExport))
	keyFile := writeFile(t, "clave", earlierapp.SignerKey+"\n")

	// Each destination: the arguments after --to, and the environment a
	// server (and the import) runs with on it.
	type destination struct{ to, env []string }
	dir := t.TempDir()
	destinations := map[string]destination{"sqlite": {[]string{"sqlite://" + dir}, []string{"DATA_DIR", dir, "DATABASE_URL", ""}}}
	if os.Getenv("TEST_DATABASE_URL") != "" {
		db := newPostgresDB(t)
		destinations["postgres"] = destination{[]string{db, "--to-media", "dir://" + t.TempDir()}, []string{"DATABASE_URL", db}}
	}
	fromMedia := []string{"--from", from, "--from-media", "gs://grabaciones-anteriores"}

	// adopt leaves two profiles with one mail for the operator to settle;
	// the migration names them and writes nothing until that is done.
	fails(t, "have the same mail "+earlierapp.RepeatMail, append([]string{"migrate-data"}, append(fromMedia, "--to", "sqlite://"+t.TempDir())...)...)
	deleteEarlierDoc(t, project, "users", earlierapp.RepeatedB)

	for name, d := range destinations {
		t.Run(name, func(t *testing.T) {
			r := mustMigrate(t, append(append(fromMedia, "--to"), d.to...)...)
			if !strings.Contains(r.stdout, "both sides match") {
				t.Fatalf("migrate-data:\n%s", r.stdout)
			}
			for i := 0; i < len(d.env); i += 2 {
				t.Setenv(d.env[i], d.env[i+1])
			}
			if r := must(t, importArgs(export, "--hash-key-file", keyFile)...); !strings.Contains(r.stdout, "passwords imported                   6") {
				t.Errorf("import-firebase into %s:\n%s", name, r.stdout)
			}
			checkMovedIn(t)
		})
	}
}

// checkMovedIn runs the journeys on the store DATABASE_URL names, after
// adopt and import-firebase: tutors see their groups and students, a
// student of an active group may enter the test, imported passwords sign
// in and are rehashed, Microsoft-only and disabled accounts are as they
// were.
func checkMovedIn(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	a, err := newApp(ctx, io.Discard, false)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	signIn := func(acc earlierapp.Account, password string) (domain.User, error) {
		return a.auth.LoginPassword(ctx, acc.Mail, password, "203.0.113.9")
	}

	// A tutor sees their group and its students.
	tutor, err := signIn(earlierapp.TutorUno, earlierapp.TutorUno.Password)
	if err != nil {
		t.Fatalf("the tutor's old password: %v", err)
	}
	g, err := a.groups.ActiveGroup(ctx, tutor)
	if err != nil || g.ID != earlierapp.GroupUnoNew || len(g.Estudiantes) != 2 {
		t.Fatalf("the tutor's active group: %+v, %v", g, err)
	}
	if hist, err := a.groups.History(ctx, tutor); err != nil || len(hist) != 3 {
		t.Errorf("the tutor's groups: %d, %v", len(hist), err)
	}

	// Students of an active group enter the test; their passwords were
	// rehashed at the first sign-in and still work.
	for _, acc := range []earlierapp.Account{earlierapp.Ana, earlierapp.Carla, earlierapp.Sample, earlierapp.Nuevo, earlierapp.Elena} {
		u, err := signIn(acc, acc.Password)
		if err != nil {
			t.Fatalf("%s with the old password: %v", acc.Mail, err)
		}
		if u.ID != acc.UID {
			t.Errorf("%s signed in as %s, want the uid %s", acc.Mail, u.ID, acc.UID)
		}
		h, err := a.store.PasswordHash(ctx, u.ID)
		if err != nil || !strings.HasPrefix(h, "$argon2id$") {
			t.Errorf("%s's credential after sign-in: %.20q, %v; want argon2id", acc.Mail, h, err)
		}
		if _, err := signIn(acc, acc.Password); err != nil {
			t.Errorf("%s's second sign-in: %v", acc.Mail, err)
		}
		if _, err := signIn(acc, acc.Password+"x"); err == nil {
			t.Errorf("%s signed in with a wrong password", acc.Mail)
		}
		ok, err := a.groups.CanEnterTest(ctx, u)
		if want := acc.UID != earlierapp.Elena.UID && acc.UID != earlierapp.Sample.UID && acc.UID != earlierapp.Nuevo.UID; err != nil || ok != want {
			t.Errorf("%s may enter the test: %v, %v; want %v", acc.Mail, ok, err, want)
		}
	}

	// A disabled account stays disabled, with its right password too.
	if _, err := signIn(earlierapp.Diego, earlierapp.Diego.Password); err == nil {
		t.Error("a disabled account signed in")
	}
	// Microsoft-only accounts keep their profile, without a password.
	for _, acc := range []earlierapp.Account{earlierapp.Bruno, earlierapp.TutorDos} {
		u, err := a.store.GetUserByMail(ctx, acc.Mail)
		if err != nil || u.ID != acc.UID || string(u.Role) != acc.Role {
			t.Errorf("%s's profile: %+v, %v", acc.Mail, u, err)
		}
		if has, err := a.auth.HasPassword(ctx, u); err != nil || has {
			t.Errorf("%s has a password: %v, %v", acc.Mail, has, err)
		}
	}
	if v, err := a.store.GetMeta(ctx, auth.FirebaseImportMeta); err != nil || v != "r=8,m=14" {
		t.Errorf("the import's meta record: %q, %v", v, err)
	}
}

// TestImportFirebaseRefusesBadInput: a truncated export, wrong hash
// parameters, a mail in two accounts and a key on the command line are
// refused with a clear message, and nothing is written.
func TestImportFirebaseRefusesBadInput(t *testing.T) {
	cliEnv(t)
	good := string(earlierapp.AuthExport)
	truncated := writeFile(t, "cortado.json", good[:len(good)/2])
	twice := writeFile(t, "dos.json", strings.Replace(good, earlierapp.Ana.Mail, strings.ToUpper(earlierapp.Carla.Mail), 1))
	export := writeFile(t, "users.json", good)
	key := earlierapp.SignerKey + "\n"

	failsIn(t, "is not complete JSON (cut short?)", key, importArgs(truncated)...)
	failsIn(t, "belongs to two accounts", key, importArgs(twice)...)
	failsIn(t, "rounds must be between 1 and 8", key, "users", "import-firebase", export, "--salt-separator", "Bw==", "--rounds", "9", "--mem-cost", "14")
	failsIn(t, "mem-cost must be between 1 and 14", key, "users", "import-firebase", export, "--salt-separator", "Bw==", "--rounds", "8", "--mem-cost", "20")
	failsIn(t, "--salt-separator (base64_salt_separator) is not base64", key, "users", "import-firebase", export, "--salt-separator", "¿?", "--rounds", "8", "--mem-cost", "14")
	failsIn(t, "the hash key is not this project's", "c2hvcnQta2V5\n", importArgs(export)...)
	failsIn(t, "no hash key", "", importArgs(export)...)
	failsIn(t, "--hash-key is not accepted", "", importArgs(export, "--hash-key", earlierapp.SignerKey)...)
	if _, err := os.Stat(filepath.Join(os.Getenv("DATA_DIR"), "simulador.db")); err == nil {
		t.Error("a refused import opened (and created) the store")
	}
}

// TestAdoptRefusesBadInput: adopt needs a Firestore project.
func TestAdoptRefusesBadInput(t *testing.T) {
	cliEnv(t)
	fails(t, "--from must be firestore://PROJECT_ID", "adopt", "--from", "sqlite:///tmp/x")
	fails(t, "--from must be firestore://PROJECT_ID", "adopt")
	fails(t, "unexpected argument", "adopt", "--from", "firestore://p", "extra")
}
