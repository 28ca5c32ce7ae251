package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
)

// result is what one command line did.
type result struct {
	code           int
	stdout, stderr string
}

// cliEnv is a clean environment with its own DATA_DIR: nothing from the
// developer's shell (a DATABASE_URL, say) leaks into the commands.
func cliEnv(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for _, k := range []string{"ADDR", "PORT", "DATABASE_URL", "LOG_LEVEL", "LOG_FORMAT", "COOKIE_SECURE", "TRUST_PROXY", "TRUST_PROXY_HOPS", "TRUST_PROXY_CIDRS",
		"SESSION_IDLE_TIMEOUT", "SESSION_MAX_AGE", "MS_TENANT_ID", "MS_CLIENT_ID", "MS_AUTHORITY", "MS_CA_FILE",
		"ALLOW_SHORT_TIMINGS", "RECORDING_RETENTION_DAYS", "TRANSCRIBE_URL", "INTRO_VIDEO_URL", "MEDIA_BUCKET",
		"STORAGE_EMULATOR_HOST", "FIREBASE_STORAGE_EMULATOR_HOST", "FIRESTORE_EMULATOR_HOST",
		"MS_EMAIL_DOMAINS", "TUTORS_REQUIRE_MICROSOFT", "SMTP_URL", "SMTP_PASSWORD", "MAIL_FROM", "PUBLIC_URL"} {
		t.Setenv(k, "")
	}
	t.Setenv("DATA_DIR", dir)
	return dir
}

func runCLI(t testing.TB, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := cli(context.Background(), args, strings.NewReader(stdin), &out, &errOut)
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

// must runs a command that has to succeed.
func must(t *testing.T, args ...string) result {
	t.Helper()
	r := runCLI(t, "", args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// fails runs a command that has to fail with an error naming want.
func fails(t *testing.T, want string, args ...string) result {
	t.Helper()
	r := runCLI(t, "", args...)
	if r.code == 0 {
		t.Fatalf("%v succeeded; stdout: %s", args, r.stdout)
	}
	if !strings.Contains(r.stderr, want) {
		t.Fatalf("%v: stderr does not mention %q:\n%s", args, want, r.stderr)
	}
	return r
}

// mustIn runs a command that has to succeed, with stdin as its input.
func mustIn(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	r := runCLI(t, stdin, args...)
	if r.code != 0 {
		t.Fatalf("%v: exit %d\nstdout: %s\nstderr: %s", args, r.code, r.stdout, r.stderr)
	}
	return r
}

// failsIn runs a command with stdin as its input that has to fail with an
// error naming want.
func failsIn(t *testing.T, want, stdin string, args ...string) result {
	t.Helper()
	r := runCLI(t, stdin, args...)
	if r.code == 0 {
		t.Fatalf("%v succeeded; stdout: %s", args, r.stdout)
	}
	if !strings.Contains(r.stderr, want) {
		t.Fatalf("%v: stderr does not mention %q:\n%s", args, want, r.stderr)
	}
	return r
}

func TestUsersCreate(t *testing.T) {
	cliEnv(t)
	r := mustIn(t, "una-clave-segura\n", "users", "create", "--email", "Tutora@UTPL.edu.ec", "--role", "tutor", "--name", "Ana María Pérez")
	if !strings.Contains(r.stdout, "created tutora@utpl.edu.ec") || !strings.Contains(r.stdout, "role tutor") {
		t.Errorf("stdout = %q", r.stdout)
	}
	failsIn(t, "ya existe un usuario con el correo tutora@utpl.edu.ec", "otra-clave-segura\n",
		"users", "create", "--email", "TUTORA@utpl.edu.ec", "--role", "estudiante")
	failsIn(t, "al menos 8 caracteres", "corta\n", "users", "create", "--email", "b@utpl.edu.ec", "--role", "tutor")
	fails(t, "--role must be tutor or estudiante", "users", "create", "--email", "b@utpl.edu.ec", "--role", "admin")
	failsIn(t, "no es válido", "una-clave-segura\n", "users", "create", "--email", "no-es-un-correo", "--role", "tutor")
	fails(t, "--email is required", "users", "create", "--role", "tutor")
	fails(t, "no password on standard input", "users", "create", "--email", "b@utpl.edu.ec", "--role", "tutor")
	// An unquoted name would be cut at its first space: refused, not guessed.
	r = fails(t, `unexpected argument "Pérez"`,
		"users", "create", "--email", "b@utpl.edu.ec", "--name", "Ana", "Pérez", "--role", "tutor")
	if !strings.Contains(r.stderr, "quotes") {
		t.Errorf("the error does not say how to pass a value with spaces: %s", r.stderr)
	}
	// None of the refused commands created anyone.
	fails(t, "no existe un usuario con el correo b@utpl.edu.ec", "users", "set-role", "--email", "b@utpl.edu.ec", "--role", "tutor")
	fails(t, "flag provided but not defined: -mail", "users", "create", "--mail", "b@utpl.edu.ec")
}

// Passwords were passed as --password, visible in the process list and
// kept in shell history; they are read from standard input instead, and a
// common one is refused.
func TestPasswordsNeverComeFromTheCommandLine(t *testing.T) {
	cliEnv(t)
	for _, args := range [][]string{
		{"users", "create", "--email", "b@utpl.edu.ec", "--password", "una-clave-segura", "--role", "tutor"},
		{"users", "create", "--email", "b@utpl.edu.ec", "-password=una-clave-segura", "--role", "tutor"},
		{"users", "set-password", "--email", "b@utpl.edu.ec", "--password", "una-clave-segura"},
	} {
		r := failsIn(t, "--password is not accepted", "una-clave-segura\n", args...)
		if !strings.Contains(r.stderr, "standard input") {
			t.Errorf("%v: the error does not say where the password comes from: %s", args, r.stderr)
		}
	}
	failsIn(t, "demasiado común", "password123\n", "users", "create", "--email", "b@utpl.edu.ec", "--role", "tutor")
	// Only the first line is the password; a Windows line end is not part of it.
	mustIn(t, "clave-de-windows-1\r\nsegunda línea\n", "users", "create", "--email", "b@utpl.edu.ec", "--role", "tutor")
	a, err := newApp(context.Background(), io.Discard, false)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.auth.LoginPassword(context.Background(), "b@utpl.edu.ec", "clave-de-windows-1", "127.0.0.1"); err != nil {
		t.Fatalf("the piped password does not sign in: %v", err)
	}
}

func TestUsersSetPassword(t *testing.T) {
	cliEnv(t)
	ctx := context.Background()
	mustIn(t, "una-clave-segura\n", "users", "create", "--email", "luis@utpl.edu.ec", "--role", "tutor")
	a, err := newApp(ctx, io.Discard, false)
	if err != nil {
		t.Fatal(err)
	}
	u, err := a.auth.LoginPassword(ctx, "luis@utpl.edu.ec", "una-clave-segura", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	token, err := a.auth.Sessions().Create(ctx, u.ID, "test", "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	a.Close()

	failsIn(t, "demasiado común", "qwertyuiop\n", "users", "set-password", "--email", "luis@utpl.edu.ec")
	failsIn(t, "no existe un usuario con el correo nadie@utpl.edu.ec", "otra-clave-larga-9\n", "users", "set-password", "--email", "nadie@utpl.edu.ec")
	fails(t, "--email is required", "users", "set-password")
	r := mustIn(t, "otra-clave-larga-9\n", "users", "set-password", "--email", "LUIS@utpl.edu.ec")
	if !strings.Contains(r.stdout, "luis@utpl.edu.ec has a new password") {
		t.Errorf("stdout = %q", r.stdout)
	}

	a, err = newApp(ctx, io.Discard, false)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if _, err := a.auth.Sessions().Resolve(ctx, token); err == nil {
		t.Error("the session opened with the old password survived")
	}
	if _, err := a.auth.LoginPassword(ctx, "luis@utpl.edu.ec", "una-clave-segura", "127.0.0.1"); err == nil {
		t.Error("the old password still signs in")
	}
	if _, err := a.auth.LoginPassword(ctx, "luis@utpl.edu.ec", "otra-clave-larga-9", "127.0.0.2"); err != nil {
		t.Errorf("the new password does not sign in: %v", err)
	}
}

func TestUsersSetRole(t *testing.T) {
	cliEnv(t)
	mustIn(t, "una-clave-segura\n", "users", "create", "--email", "luis@utpl.edu.ec", "--role", "estudiante")
	r := must(t, "users", "set-role", "--email", "LUIS@utpl.edu.ec", "--role", "tutor")
	if strings.TrimSpace(r.stdout) != "luis@utpl.edu.ec now has role tutor" {
		t.Errorf("stdout = %q", r.stdout)
	}
	r = must(t, "users", "set-role", "--email", "luis@utpl.edu.ec", "--role", "estudiante")
	if !strings.Contains(r.stdout, "now has role estudiante") {
		t.Errorf("stdout = %q", r.stdout)
	}
	fails(t, "no existe un usuario con el correo nadie@utpl.edu.ec", "users", "set-role", "--email", "Nadie@utpl.edu.ec", "--role", "tutor")
	fails(t, "--role must be tutor or estudiante", "users", "set-role", "--email", "luis@utpl.edu.ec")
	fails(t, "--email is required", "users", "set-role", "--role", "tutor")
	fails(t, `users set-role: unexpected argument "extra"`, "users", "set-role", "--email", "luis@utpl.edu.ec", "--role", "tutor", "extra")
}

func TestUnknownCommandsAndArguments(t *testing.T) {
	cliEnv(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"usuarios"}, `unknown command "usuarios"`},
		{[]string{"users"}, "missing subcommand"},
		{[]string{"users", "delete"}, `unknown subcommand "delete"`},
		{[]string{"cases"}, "missing subcommand"},
		{[]string{"cases", "borrar"}, `unknown subcommand "borrar"`},
		{[]string{"cases", "import"}, "usage: simulador cases import FILE"},
		{[]string{"cases", "import", "a.json", "b.json"}, "usage: simulador cases import FILE"},
		{[]string{"cases", "export", "Derecho"}, `cases export: unexpected argument "Derecho"`},
		{[]string{"analyze", "texto.txt"}, `analyze: unexpected argument "texto.txt"`},
		{[]string{"serve", "ahora"}, `serve: unexpected argument "ahora"`},
	} {
		r := fails(t, tc.want, tc.args...)
		if r.stdout != "" {
			t.Errorf("%v wrote on stdout: %q", tc.args, r.stdout)
		}
	}
	// The usage goes with the unknown names, so the right one is at hand.
	if r := fails(t, "unknown command", "usuarios"); !strings.Contains(r.stderr, "users create --email E") {
		t.Errorf("no usage after an unknown command: %s", r.stderr)
	}
	if r := must(t, "help"); !strings.Contains(r.stdout, "users set-role") {
		t.Errorf("help = %q", r.stdout)
	}
}

func TestInvalidConfigurationNamesTheVariable(t *testing.T) {
	dir := cliEnv(t)
	t.Setenv("PORT", "abc")
	r := failsIn(t, "PORT", "una-clave-segura\n", "users", "create", "--email", "a@utpl.edu.ec", "--role", "tutor")
	if !strings.Contains(r.stderr, `PORT="abc"`) {
		t.Errorf("stderr = %q", r.stderr)
	}
	fails(t, "PORT", "serve")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused configuration wrote to DATA_DIR: %v", entries)
	}
	t.Setenv("PORT", "")
	t.Setenv("MS_TENANT_ID", "utpl.edu.ec")
	t.Setenv("MS_CLIENT_ID", "app")
	fails(t, "MS_TENANT_ID", "cases", "export")
}

// serveUntilReady runs `simulador serve` until it accepts requests, checks
// that it answers, stops it and returns what it printed.
func serveUntilReady(t *testing.T) result {
	t.Helper()
	t.Setenv("ADDR", "127.0.0.1:0")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var health int
	var wg sync.WaitGroup
	serving = func(addr net.Addr) {
		wg.Go(func() {
			defer cancel()
			res, err := http.Get("http://" + addr.String() + "/api/health")
			if err != nil {
				t.Errorf("health: %v", err)
				return
			}
			res.Body.Close()
			health = res.StatusCode
		})
	}
	defer func() { serving = nil }()
	var out, errOut bytes.Buffer
	code := cli(ctx, []string{"serve"}, strings.NewReader(""), &out, &errOut)
	wg.Wait()
	if code != 0 || health != http.StatusOK {
		t.Fatalf("serve: exit %d, health %d\n%s", code, health, errOut.String())
	}
	return result{code: code, stdout: out.String(), stderr: errOut.String()}
}

func TestFirstRunTellsHowToCreateTheFirstTutor(t *testing.T) {
	dir := cliEnv(t)
	r := serveUntilReady(t)
	for _, want := range []string{
		"No tutor account exists yet",
		"DATA_DIR=" + dir + " bin/simulador users create --email nombre.apellido@utpl.edu.ec --role tutor",
		"It asks for the password",
		"/login",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("first run does not say %q:\n%s", want, r.stderr)
		}
	}
	// Following the hint makes it go away.
	mustIn(t, "una-clave-segura\n", "users", "create", "--email", "tutor@utpl.edu.ec", "--role", "tutor", "--name", "Nombre Apellido")
	if r := serveUntilReady(t); strings.Contains(r.stderr, "No tutor account exists yet") {
		t.Errorf("the hint is still printed once a tutor exists:\n%s", r.stderr)
	}
}

const validCaseJSON = `[{
  "degree": "Derecho", "area": "Laboral", "title": "Despido intempestivo de prueba",
  "facts": "Un trabajador fue despedido sin causa después de cinco años de servicio.",
  "questions": ["¿Qué indemnización corresponde?"],
  "followUps": ["¿Qué artículo fija la indemnización?", "¿Cómo se calcula el desahucio?"],
  "keyPoints": ["indemnización por despido", "bonificación por desahucio"],
  "legalBases": [{"norm": "Código del Trabajo", "article": "188"}],
  "status": "active", "demo": false
}]`

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// exportCases runs `cases export` and checks its stdout is only JSON.
func exportCases(t *testing.T, args ...string) []catalog.ExchangeCase {
	t.Helper()
	r := must(t, append([]string{"cases", "export"}, args...)...)
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	var cases []catalog.ExchangeCase
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("stdout is not a JSON list of cases: %v\n%s", err, r.stdout)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("stdout has more than the JSON list: %q", r.stdout[dec.InputOffset():])
	}
	return cases
}

func findCase(cases []catalog.ExchangeCase, title string) *catalog.ExchangeCase {
	for i := range cases {
		if cases[i].Title == title {
			return &cases[i]
		}
	}
	return nil
}

func TestCasesImportAndExport(t *testing.T) {
	cliEnv(t)
	demo := exportCases(t)
	if len(demo) == 0 {
		t.Fatal("a fresh install exports no cases (the demo bank is missing)")
	}

	r := must(t, "cases", "import", writeFile(t, "casos.json", validCaseJSON))
	if !strings.Contains(r.stdout, "1 created, 0 updated") {
		t.Errorf("JSON import: %q", r.stdout)
	}
	csvFile := "degree,area,title,facts,questions,followUps,keyPoints,legalBases,status,demo\n" +
		"Derecho,Constitucional,Hábeas data de prueba,Una persona pide acceder a sus datos en un registro público.," +
		"\"¿Procede el hábeas data?\",\"¿Qué artículo lo reconoce?\n¿Quién puede pedirlo?\",\"acceso a datos personales\nlegitimación activa\"," +
		"\"Constitución: 92\",active,false\n"
	r = must(t, "cases", "import", writeFile(t, "casos.csv", csvFile))
	if !strings.Contains(r.stdout, "1 created, 0 updated") {
		t.Errorf("CSV import: %q", r.stdout)
	}
	r = must(t, "cases", "import", writeFile(t, "otra-vez.json", validCaseJSON))
	if !strings.Contains(r.stdout, "0 created, 1 updated") {
		t.Errorf("importing the same title again: %q", r.stdout)
	}

	all := exportCases(t, "--degree", "derecho")
	if len(all) != len(demo)+2 {
		t.Fatalf("%d cases after importing 2 new ones over %d", len(all), len(demo))
	}
	c := findCase(all, "Hábeas data de prueba")
	if c == nil || len(c.KeyPoints) != 2 || len(c.LegalBases) != 1 || c.LegalBases[0].Article != "92" {
		t.Errorf("the CSV case came back as %+v", c)
	}
	if r := fails(t, "no existe", "cases", "export", "--degree", "Medicina"); r.stdout != "" {
		t.Errorf("a failed export wrote on stdout: %q", r.stdout)
	}
}

func TestCasesImportRefusesABadFileWhole(t *testing.T) {
	cliEnv(t)
	before := exportCases(t)
	bad := `[` + validCaseJSON[1:len(validCaseJSON)-1] + `,
	{"degree": "Medicina", "area": "", "title": "Caso con errores", "facts": "x", "questions": [], "followUps": ["a"],
	 "keyPoints": ["a"], "legalBases": [{"norm": "Constitución", "article": "setenta"}], "status": "active", "demo": false}]`
	r := fails(t, "no se importó nada", "cases", "import", writeFile(t, "malo.json", bad))
	for _, want := range []string{"fila 2, columna «degree»", "fila 2, columna «area»", "fila 2, columna «questions»", "«setenta»"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("row-level error %q missing:\n%s", want, r.stderr)
		}
	}
	if r.stdout != "" {
		t.Errorf("stdout = %q", r.stdout)
	}
	badCSV := "degree,area,title\nDerecho,Laboral,Sin columnas\n"
	r = fails(t, "Falta la columna «facts»", "cases", "import", writeFile(t, "malo.csv", badCSV))
	fails(t, "use un archivo .json o .csv", "cases", "import", writeFile(t, "casos.txt", validCaseJSON))
	fails(t, "no such file", "cases", "import", filepath.Join(t.TempDir(), "no-existe.json"))

	// The good first row of the bad file was not written either.
	if after := exportCases(t); len(after) != len(before) || findCase(after, "Despido intempestivo de prueba") != nil {
		t.Fatalf("a refused import changed the bank: %d cases before, %d after", len(before), len(after))
	}
}

func TestAnalyzeReadsTheTranscriptFromStdin(t *testing.T) {
	cliEnv(t)
	transcript := "Buenos días, señores miembros del tribunal. Según el artículo 534, no cabe la prisión preventiva. " +
		"Eh, el caso, este, trata de un despido. El artículo 188 del Código del Trabajo fija la indemnización. Muchas gracias."
	caseFile := writeFile(t, "caso.json", validCaseJSON)
	r := runCLI(t, transcript, "analyze", "--case", caseFile, "--duration", "12")
	if r.code != 0 {
		t.Fatalf("analyze: exit %d: %s", r.code, r.stderr)
	}
	var got struct {
		Citations []struct {
			Norm    string `json:"norm"`
			Article int    `json:"article"`
		} `json:"citations"`
		Unattributed     []int          `json:"unattributed"`
		Greeting         bool           `json:"greeting"`
		Closing          bool           `json:"closing"`
		KeyPointsCovered []int          `json:"keyPointsCovered"`
		Fillers          map[string]int `json:"fillers"`
		Words            int            `json:"words"`
		WordsPerMinute   float64        `json:"wordsPerMinute"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, r.stdout)
	}
	if len(got.Citations) != 1 || got.Citations[0].Norm != "Código del Trabajo" || got.Citations[0].Article != 188 {
		t.Errorf("citations = %+v", got.Citations)
	}
	if len(got.Unattributed) != 1 || got.Unattributed[0] != 534 {
		t.Errorf("unattributed = %v", got.Unattributed)
	}
	if !got.Greeting || !got.Closing {
		t.Errorf("greeting %v, closing %v", got.Greeting, got.Closing)
	}
	if len(got.KeyPointsCovered) != 1 || got.KeyPointsCovered[0] != 0 {
		t.Errorf("keyPointsCovered = %v", got.KeyPointsCovered)
	}
	if got.Fillers["eh"] != 1 || got.Fillers["este"] != 1 {
		t.Errorf("fillers = %v", got.Fillers)
	}
	if got.Words < 30 || got.WordsPerMinute <= 0 {
		t.Errorf("words %d, per minute %v", got.Words, got.WordsPerMinute)
	}

	// Without a case there is nothing to compare with, and no database is needed.
	r = runCLI(t, "Buenas tardes. Gracias.", "analyze")
	if r.code != 0 || !strings.Contains(r.stdout, `"greeting": true`) {
		t.Errorf("analyze without a case: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	fails(t, "no keyPoints or legalBases", "analyze", "--case", writeFile(t, "vacio.json", `{"title": "x"}`))
	fails(t, "expected one case, found 2", "analyze", "--case", writeFile(t, "dos.json", `[{"keyPoints":["a"]},{"keyPoints":["b"]}]`))
}

// A tutor who lost the phone: the operator turns the second factor off
// from the terminal; the role change and the reset are security events
// marked as done from the terminal.
func TestUsersResetMFAAndRoleChangesAreEvents(t *testing.T) {
	cliEnv(t)
	t.Setenv("LOG_FORMAT", "json")
	mustIn(t, "una-clave-segura\n", "users", "create", "--email", "tania@utpl.edu.ec", "--role", "estudiante")
	r := must(t, "users", "set-role", "--email", "tania@utpl.edu.ec", "--role", "tutor")
	if !strings.Contains(r.stderr, `"event":"user.role.change"`) || !strings.Contains(r.stderr, `"from":"estudiante","to":"tutor"`) ||
		!strings.Contains(r.stderr, `"via":"cli"`) {
		t.Fatalf("no role-change event:\n%s", r.stderr)
	}
	fails(t, "no tiene verificación en dos pasos", "users", "reset-mfa", "--email", "tania@utpl.edu.ec")
	fails(t, "no existe un usuario", "users", "reset-mfa", "--email", "nadie@utpl.edu.ec")
	fails(t, "--email is required", "users", "reset-mfa")

	ctx := context.Background()
	a, err := newApp(ctx, io.Discard, false)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := a.store.GetUserByMail(ctx, "tania@utpl.edu.ec")
	if err := a.store.PutMFA(ctx, domain.MFA{UserID: u.ID, Secret: "JBSWY3DPEHPK3PXP", EnabledAt: &u.CreatedAt}); err != nil {
		t.Fatal(err)
	}
	a.Close()
	r = must(t, "users", "reset-mfa", "--email", "TANIA@utpl.edu.ec")
	if !strings.Contains(r.stdout, "tania@utpl.edu.ec no longer has two-step verification") || !strings.Contains(r.stderr, `"event":"auth.mfa.reset"`) {
		t.Fatalf("reset-mfa: %s\n%s", r.stdout, r.stderr)
	}
	a, _ = newApp(ctx, io.Discard, false)
	defer a.Close()
	if _, err := a.store.GetMFA(ctx, u.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("the second factor survived: %v", err)
	}
}
