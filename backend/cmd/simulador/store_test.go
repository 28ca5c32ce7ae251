package main

import (
	"crypto/rand"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// closedPort returns a local address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestStartNamesTheStore(t *testing.T) {
	dir := cliEnv(t)
	r := serveUntilReady(t)
	if !strings.Contains(r.stderr, "msg=store kind=sqlite file="+dir) {
		t.Errorf("the start does not say which store it uses:\n%s", r.stderr)
	}
}

func TestUnreachablePostgreSQLStopsTheStartWithoutThePassword(t *testing.T) {
	cliEnv(t)
	addr := closedPort(t)
	t.Setenv("DATABASE_URL", "postgres://simulador:s3cr3t-clave@"+addr+"/simulador?sslmode=disable&password=otra-s3cr3t")
	r := fails(t, "DATABASE_URL: cannot use PostgreSQL at simulador@"+addr+"/simulador", "serve")
	if !strings.Contains(r.stderr, "kind=postgres server=simulador@"+addr+"/simulador") {
		t.Errorf("the start does not say which store it tried:\n%s", r.stderr)
	}
	// A URL pgx cannot parse is refused without being quoted.
	t.Setenv("DATABASE_URL", "postgres://simulador:s3cr3t-clave@"+addr+"/simulador?sslmode=nunca")
	fails(t, "not a valid PostgreSQL URL", "users", "set-role", "--email", "a@utpl.edu.ec", "--role", "tutor")
	for _, run := range []result{r, runCLI(t, "", "serve")} {
		if strings.Contains(run.stderr, "s3cr3t") {
			t.Errorf("a password was printed:\n%s", run.stderr)
		}
	}
}

func TestUnreachableFirestoreStopsTheStart(t *testing.T) {
	cliEnv(t)
	defer func(d time.Duration) { storeStartTimeout = d }(storeStartTimeout)
	storeStartTimeout = 2 * time.Second
	addr := closedPort(t)
	t.Setenv("FIRESTORE_EMULATOR_HOST", addr)
	t.Setenv("DATABASE_URL", "firestore://demo-nowhere")
	start := time.Now()
	r := fails(t, "DATABASE_URL: cannot use Firestore (gave up after 2s): reach Firestore in project demo-nowhere", "serve")
	if !strings.Contains(r.stderr, "kind=firestore project=demo-nowhere emulator="+addr) {
		t.Errorf("the start does not say which store it tried:\n%s", r.stderr)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("giving up took %s", d)
	}
}

// TestCommandsOnFirestore runs terminal commands and the server against
// the Firestore emulator, as on Google Cloud with DATABASE_URL=firestore://.
func TestCommandsOnFirestore(t *testing.T) {
	host := os.Getenv("TEST_FIRESTORE_EMULATOR_HOST")
	if host == "" {
		t.Skip("TEST_FIRESTORE_EMULATOR_HOST not set: Firestore commands skipped (scripts/with-firestore.sh starts the emulator)")
	}
	dir := cliEnv(t)
	project := "demo-cli-" + strings.ToLower(rand.Text()[:8])
	t.Setenv("FIRESTORE_EMULATOR_HOST", host)
	t.Setenv("DATABASE_URL", "firestore://"+project)

	// A fresh database: the server says how to create the first tutor in it.
	r := serveUntilReady(t)
	if want := "FIRESTORE_EMULATOR_HOST=" + host + " DATABASE_URL=firestore://" + project + " bin/simulador users create"; !strings.Contains(r.stderr, want) {
		t.Errorf("the first-run hint does not say %q:\n%s", want, r.stderr)
	}

	r = mustIn(t, "una-clave-segura\n", "users", "create", "--email", "Tutora@UTPL.edu.ec", "--role", "tutor", "--name", "Ana María Pérez")
	if !strings.Contains(r.stdout, "created tutora@utpl.edu.ec") {
		t.Errorf("stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "kind=firestore project="+project+" emulator="+host) {
		t.Errorf("the command does not say which store it uses:\n%s", r.stderr)
	}
	failsIn(t, "ya existe un usuario con el correo tutora@utpl.edu.ec", "otra-clave-segura\n",
		"users", "create", "--email", "TUTORA@utpl.edu.ec", "--role", "estudiante")
	mustIn(t, "una-clave-segura\n", "users", "create", "--email", "luis@utpl.edu.ec", "--role", "estudiante")
	if r := must(t, "users", "set-role", "--email", "LUIS@utpl.edu.ec", "--role", "tutor"); strings.TrimSpace(r.stdout) != "luis@utpl.edu.ec now has role tutor" {
		t.Errorf("set-role: %q", r.stdout)
	}

	demo := exportCases(t)
	if len(demo) == 0 {
		t.Fatal("a fresh Firestore database exports no cases (the demo bank is missing)")
	}
	if r := must(t, "cases", "import", writeFile(t, "casos.json", validCaseJSON)); !strings.Contains(r.stdout, "1 created, 0 updated") {
		t.Errorf("import: %q", r.stdout)
	}
	if r := must(t, "cases", "import", writeFile(t, "otra-vez.json", validCaseJSON)); !strings.Contains(r.stdout, "0 created, 1 updated") {
		t.Errorf("import again: %q", r.stdout)
	}
	if all := exportCases(t, "--degree", "Derecho"); len(all) != len(demo)+1 || findCase(all, "Despido intempestivo de prueba") == nil {
		t.Errorf("%d cases after importing one over %d", len(all), len(demo))
	}

	// The server on the same database: no first-run hint (tutors exist),
	// and nothing written to DATA_DIR's SQLite.
	r = serveUntilReady(t)
	if strings.Contains(r.stderr, "No tutor account exists yet") {
		t.Errorf("the server does not see the tutors the commands created:\n%s", r.stderr)
	}
	if _, err := os.Stat(dir + "/simulador.db"); err == nil {
		t.Error("a SQLite database was created beside Firestore")
	}
}
