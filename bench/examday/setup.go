package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for template databases
	_ "modernc.org/sqlite"             // the "sqlite" driver, to read a template's schema version

	"github.com/utpl/simulador/bench/benchkit"
)

// degreeID is the demo bank's degree, which every fresh install has.
const degreeID = "derecho"

// fixture is who takes part: the same accounts in a template and in every
// run made from it.
type fixture struct {
	prefix   string
	students []*student
	tutors   []*tutor
}

func newFixture(o options, prefix string) *fixture {
	f := &fixture{prefix: prefix}
	for i := range o.students {
		f.students = append(f.students, &student{
			i:     i,
			email: fmt.Sprintf("est%05d.%s@utpl.edu.ec", i, prefix),
			name:  fmt.Sprintf("Estudiante %05d", i),
			oid:   fmt.Sprintf("00000000-0000-4000-8000-%012d", i),
			// 198.18.0.0/15 is set aside for benchmarks (RFC 2544).
			addr:   fmt.Sprintf("198.18.%d.%d", (i%o.addresses)/250, (i%o.addresses)%250+1),
			client: benchkit.NewClient(o.timeout),
			rng:    rand.New(rand.NewChaCha8([32]byte{byte(i), byte(i >> 8), byte(i >> 16)})),
			bytes:  rand.NewChaCha8([32]byte{1, byte(i), byte(i >> 8), byte(i >> 16)}),
		})
	}
	for i := range o.tutors {
		f.tutors = append(f.tutors, &tutor{email: fmt.Sprintf("tutor%02d.%s@utpl.edu.ec", i, prefix),
			client: benchkit.NewClient(o.timeout), addr: fmt.Sprintf("198.19.0.%d", i+1)})
	}
	return f
}

// group is tutor t's share of the students.
func (f *fixture) group(t int) []*student {
	n := len(f.students)
	per := (n + len(f.tutors) - 1) / len(f.tutors)
	return f.students[min(n, t*per):min(n, (t+1)*per)]
}

// deployment is the server(s) under test.
type deployment struct {
	base    string
	pids    []int
	log     string // the server's log, when started here
	dataDir string
	cliEnv  []string // points the terminal commands at its store
	stops   []func()
}

func (d *deployment) stop() {
	for i := len(d.stops) - 1; i >= 0; i-- {
		d.stops[i]()
	}
}

// serverEnv is the environment of a server started here.
func serverEnv(o options, iss *issuer) []string {
	env := []string{"ALLOW_SHORT_TIMINGS=true", "TRUST_PROXY=true"}
	if o.target == "cluster" {
		// The benchmark's client address, then the round-robin proxy's.
		env = []string{"ALLOW_SHORT_TIMINGS=true", "TRUST_PROXY_HOPS=2"}
	}
	if iss != nil {
		env = append(env, iss.env...)
	}
	return append(env, strings.Fields(o.env)...)
}

// deploy starts the deployment for one run with the fixture in place.
func deploy(ctx context.Context, o options, iss *issuer) (*deployment, *fixture, error) {
	if o.url != "" {
		return deployURL(ctx, o)
	}
	key, err := templateKey(o)
	if err != nil {
		return nil, nil, err
	}
	fx := newFixture(o, "examday")
	d := &deployment{}
	ok := false
	defer func() {
		if !ok {
			d.stop()
		}
	}()
	if err := os.MkdirAll(o.tmp, 0o755); err != nil {
		return nil, nil, err
	}
	dir, err := os.MkdirTemp(o.tmp, "examday-run-")
	if err != nil {
		return nil, nil, err
	}
	d.dataDir = dir
	if o.keep {
		logf("DATA_DIR kept at %s", dir)
	} else {
		d.stops = append(d.stops, func() { os.RemoveAll(dir) })
	}
	env := serverEnv(o, iss)
	switch o.target {
	case "sqlite":
		tmpl := filepath.Join(o.tmp, "examday-templates", key)
		if err := ensureTemplate(ctx, o, fx, tmpl, []string{"DATA_DIR=" + tmpl}, nil); err != nil {
			return nil, nil, err
		}
		if err := copyDatabase(tmpl, dir); err != nil {
			return nil, nil, err
		}
		d.cliEnv = []string{"DATA_DIR=" + dir}
	case "postgres", "cluster":
		key := strings.ReplaceAll(key, "-", "_") // a PostgreSQL identifier
		tmplURL, err := withDatabase(o.databaseURL, "examday_tmpl_"+key)
		if err != nil {
			return nil, nil, err
		}
		if err := ensurePGTemplate(ctx, o, fx, key, tmplURL); err != nil {
			return nil, nil, err
		}
		run := fmt.Sprintf("examday_run_%d", time.Now().UnixNano())
		if err := pgExec(ctx, o.databaseURL, fmt.Sprintf("CREATE DATABASE %s TEMPLATE examday_tmpl_%s", run, key)); err != nil {
			return nil, nil, err
		}
		d.stops = append(d.stops, func() {
			if err := pgExec(context.Background(), o.databaseURL, "DROP DATABASE IF EXISTS "+run+" WITH (FORCE)"); err != nil {
				logf("drop database %s: %v", run, err)
			}
		})
		runURL, _ := withDatabase(o.databaseURL, run)
		env = append(env, "DATABASE_URL="+runURL)
		d.cliEnv = []string{"DATABASE_URL=" + runURL}
	}
	if o.media == "bucket" {
		root, err := benchkit.FakeGCSRoot(o.tmp)
		if err != nil {
			return nil, nil, err
		}
		d.stops = append(d.stops, func() { os.RemoveAll(root) })
		gcs, err := benchkit.StartGCS(ctx, o.gcsBin, root, "examday-grabaciones")
		if err != nil {
			return nil, nil, err
		}
		d.stops = append(d.stops, gcs.Stop)
		env = append(env, "MEDIA_BUCKET="+gcs.Bucket, "STORAGE_EMULATOR_HOST="+gcs.Host)
	}
	srv, err := benchkit.StartServer(ctx, benchkit.ServerOptions{Bin: o.bin, DataDir: dir, LogLevel: o.logLevel, Env: env})
	if err != nil {
		return nil, nil, err
	}
	d.stops = append(d.stops, srv.Stop)
	d.base, d.pids, d.log = srv.URL, []int{srv.PID()}, srv.Log
	if o.target == "cluster" {
		// A second instance on the same database and bucket, and a
		// round-robin proxy in front of both, as Cloud Run's load
		// balancer spreads one student's requests over instances.
		second := filepath.Join(dir, "second")
		if err := os.MkdirAll(second, 0o755); err != nil {
			return nil, nil, err
		}
		srv2, err := benchkit.StartServer(ctx, benchkit.ServerOptions{Bin: o.bin, DataDir: second, LogLevel: o.logLevel, Env: env})
		if err != nil {
			return nil, nil, err
		}
		d.stops = append(d.stops, srv2.Stop)
		proxy, err := benchkit.StartRoundRobin(srv.URL, srv2.URL)
		if err != nil {
			return nil, nil, err
		}
		d.stops = append(d.stops, func() {
			logf("the proxy sent %v requests to the two instances", proxy.Served())
			proxy.Close()
		})
		logf("two instances behind a round-robin proxy at %s", proxy.URL)
		d.base, d.pids = proxy.URL, append(d.pids, srv2.PID())
	}
	ok = true
	return d, fx, nil
}

// deployURL uses a running deployment: fresh accounts each run, made
// with the terminal commands against its store.
func deployURL(ctx context.Context, o options) (*deployment, *fixture, error) {
	pids, err := o.pidList()
	if err != nil {
		return nil, nil, err
	}
	d := &deployment{base: strings.TrimRight(o.url, "/"), pids: pids}
	if o.dataDir != "" {
		d.cliEnv = []string{"DATA_DIR=" + o.dataDir}
	} else {
		d.cliEnv = []string{"DATABASE_URL=" + o.databaseURL}
	}
	fx := newFixture(o, "r"+strings.ToLower(fmt.Sprintf("%x", time.Now().Unix())))
	if err := makeAccounts(ctx, o, fx, d.cliEnv); err != nil {
		return nil, nil, err
	}
	if err := setupByAPI(ctx, o, fx, d.base); err != nil {
		return nil, nil, err
	}
	return d, fx, nil
}

// templateKey names a template: the schema the binary migrates to, the
// sizes and the blueprint. Binaries with the same migrations share
// templates (a template made by an older binary is migrated forward when
// a newer one opens its copy), so rebuilding the server does not mean
// making 1,000 accounts again.
func templateKey(o options) (string, error) {
	v, err := schemaVersion(o)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "schema %d %s %d %d %+v", v, o.signin, o.students, o.tutors, o.blueprint)
	return fmt.Sprintf("v%d-%s", v, hex.EncodeToString(h.Sum(nil))[:12]), nil
}

// schemaVersion is the last migration the binary applies: it creates an
// account in an empty data directory and reads the SQLite file.
func schemaVersion(o options) (int64, error) {
	dir, err := os.MkdirTemp(o.tmp, "examday-probe-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	if err := benchkit.CreateUser(context.Background(), o.bin, []string{"DATA_DIR=" + dir, "DATABASE_URL="}, "probe@utpl.edu.ec", "tutor", password); err != nil {
		return 0, fmt.Errorf("the server binary (make build): %w", err)
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "simulador.db")+"?mode=ro")
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var v int64
	err = db.QueryRow("SELECT MAX(version_id) FROM goose_db_version").Scan(&v)
	return v, err
}

// ensureTemplate makes the SQLite template in dir unless it is there.
func ensureTemplate(ctx context.Context, o options, fx *fixture, dir string, cliEnv, serverEnv []string) error {
	ready := filepath.Join(dir, "ready")
	if _, err := os.Stat(ready); err == nil && !o.noCache {
		logf("template %s", dir)
		return nil
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	logf("making the template %s (once per binary and size)", dir)
	if err := makeAccounts(ctx, o, fx, cliEnv); err != nil {
		return err
	}
	srv, err := benchkit.StartServer(ctx, benchkit.ServerOptions{Bin: o.bin, DataDir: dir, LogLevel: "warn",
		Env: append([]string{"ALLOW_SHORT_TIMINGS=true"}, serverEnv...), LogPath: filepath.Join(dir, "setup.log")})
	if err != nil {
		return err
	}
	err = setupByAPI(ctx, o, fx, srv.URL)
	srv.Stop()
	if err != nil {
		return err
	}
	os.RemoveAll(filepath.Join(dir, "media"))
	return os.WriteFile(ready, nil, 0o644)
}

func copyDatabase(from, to string) error {
	for _, name := range []string{"simulador.db", "simulador.db-wal"} {
		b, err := os.ReadFile(filepath.Join(from, name))
		if errors.Is(err, os.ErrNotExist) && name != "simulador.db" {
			continue
		}
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, name), b, 0o600); err != nil {
			return err
		}
	}
	return nil
}

// ensurePGTemplate makes the PostgreSQL template database unless it is
// there (its comment says it is complete).
func ensurePGTemplate(ctx context.Context, o options, fx *fixture, key, tmplURL string) error {
	name := "examday_tmpl_" + key
	db, err := sql.Open("pgx", o.databaseURL)
	if err != nil {
		return err
	}
	defer db.Close()
	var comment sql.NullString
	err = db.QueryRowContext(ctx, `SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = $1`, name).Scan(&comment)
	if err == nil && comment.String == "ready" && !o.noCache {
		logf("template database %s", name)
		return nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if _, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return err
	}
	if _, err := db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return err
	}
	logf("making the template database %s (once per binary and size)", name)
	dir, err := os.MkdirTemp(o.tmp, "examday-pgsetup-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	if err := ensureTemplate(ctx, o, fx, dir, []string{"DATABASE_URL=" + tmplURL}, []string{"DATABASE_URL=" + tmplURL}); err != nil {
		return err
	}
	_, err = db.ExecContext(ctx, "COMMENT ON DATABASE "+name+" IS 'ready'")
	return err
}

func pgExec(ctx context.Context, dbURL, stmt string) error {
	db, err := sql.Open("pgx", dbURL)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.ExecContext(ctx, stmt)
	return err
}

func withDatabase(dbURL, name string) (string, error) {
	u, err := url.Parse(dbURL)
	if err != nil || u.Scheme == "" {
		return "", errors.New("-database-url is not a postgres:// URL")
	}
	u.Path = "/" + name
	return u.String(), nil
}

// makeAccounts creates the tutors and, for password sign-in, the students
// with the terminal commands (Microsoft sign-in creates the students'
// profiles at their first sign-in).
func makeAccounts(ctx context.Context, o options, fx *fixture, cliEnv []string) error {
	t0 := time.Now()
	// The first command migrates a fresh database: alone.
	if err := benchkit.CreateUser(ctx, o.bin, cliEnv, fx.tutors[0].email, "tutor", password); err != nil {
		return err
	}
	if err := benchkit.Parallel(ctx, o.setupJobs, len(fx.tutors)-1, func(i int) error {
		return benchkit.CreateUser(ctx, o.bin, cliEnv, fx.tutors[i+1].email, "tutor", password)
	}); err != nil {
		return err
	}
	if o.signin == "password" {
		if err := benchkit.Parallel(ctx, o.setupJobs, len(fx.students), func(i int) error {
			if i > 0 && i%250 == 0 {
				logf("  %d students created", i)
			}
			return benchkit.CreateUser(ctx, o.bin, cliEnv, fx.students[i].email, "estudiante", password)
		}); err != nil {
			return err
		}
	}
	logf("created %d tutors and %d students with the terminal commands in %.0fs", len(fx.tutors),
		map[bool]int{true: len(fx.students)}[o.signin == "password"], time.Since(t0).Seconds())
	return nil
}

// setupByAPI sets the short blueprint and loads each tutor's group.
func setupByAPI(ctx context.Context, o options, fx *fixture, base string) error {
	r := &runner{o: o, base: base, rec: newRecorder(time.Now())}
	if err := signInTutors(ctx, r, fx); err != nil {
		return err
	}
	t := fx.tutors[0]
	bp := o.blueprint
	res, err := benchkit.DoJSON(ctx, t.client, http.MethodPut, base+"/api/admin/config/"+degreeID+"/blueprint", t.cookie, map[string]any{
		"degreeId": degreeID, "preparationSec": int(bp.preparation.Seconds()), "presentationSec": int(bp.presentation.Seconds()),
		"questions": bp.questions, "thinkSec": int(bp.think.Seconds()), "answerSec": int(bp.answer.Seconds()),
		"closingSec": int(bp.closing.Seconds()), "defaultMode": "simulacro",
	}, nil)
	if err != nil {
		return err
	}
	if res.Status != http.StatusOK {
		return fmt.Errorf("set the blueprint: %d %s", res.Status, res.Body)
	}
	for i, t := range fx.tutors {
		var csv strings.Builder
		csv.WriteString("email,degree,name,department,faculty,modality\n")
		for _, s := range fx.group(i) {
			csv.WriteString(s.email + ",Derecho," + s.name + "\n")
		}
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		fw, _ := mw.CreateFormFile("file", "grupo.csv")
		_, _ = io.WriteString(fw, csv.String())
		_ = mw.Close()
		res, err := benchkit.Do(ctx, t.client, http.MethodPost, base+"/api/admin/group", t.cookie, mw.FormDataContentType(), body.Bytes(), nil)
		if err != nil {
			return fmt.Errorf("load group of %s: %w", t.email, err)
		}
		if res.Status != http.StatusCreated {
			return fmt.Errorf("load group of %s: %d %s", t.email, res.Status, res.Body)
		}
	}
	logf("blueprint set, %d groups loaded", len(fx.tutors))
	return nil
}

func signInTutors(ctx context.Context, r *runner, fx *fixture) error {
	for _, t := range fx.tutors {
		res, err := benchkit.DoJSON(ctx, t.client, http.MethodPost, r.base+"/api/auth/login", "",
			map[string]string{"email": t.email, "password": password}, map[string]string{"X-Forwarded-For": t.addr})
		if err != nil {
			return err
		}
		if res.Status != http.StatusOK {
			return fmt.Errorf("sign in tutor %s: %d %s", t.email, res.Status, res.Body)
		}
		t.cookie = res.Cookie(benchkit.SessionCookie)
	}
	return nil
}

// --- Microsoft sign-in ---

// issuer is bin/oidc-test-issuer: an HTTPS OpenID Connect issuer shaped
// like Entra ID, with real signed tokens.
type issuer struct {
	cmd    *exec.Cmd
	url    string
	env    []string // MS_* for the server
	client *http.Client
	dir    string
	done   chan struct{}
}

func startIssuer(ctx context.Context, bin, tmp string) (*issuer, error) {
	dir, err := os.MkdirTemp(tmp, "examday-issuer-")
	if err != nil {
		return nil, err
	}
	ca := filepath.Join(dir, "ca.pem")
	cmd := exec.Command(bin, "-addr", "127.0.0.1:0", "-ca-out", ca)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start %s (go build -o bin/oidc-test-issuer ./backend/cmd/oidc-test-issuer): %w", bin, err)
	}
	iss := &issuer{cmd: cmd, dir: dir, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(iss.done) }()
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
		_, _ = io.Copy(io.Discard, out)
	}()
	var ready struct{ URL, Authority, TenantID, ClientID string }
	select {
	case l, ok := <-line:
		if !ok || json.Unmarshal([]byte(l), &ready) != nil || ready.URL == "" {
			iss.stop()
			return nil, fmt.Errorf("%s did not start (printed %q)", bin, l)
		}
	case <-time.After(20 * time.Second):
		iss.stop()
		return nil, fmt.Errorf("%s did not start in 20 s", bin)
	case <-ctx.Done():
		iss.stop()
		return nil, ctx.Err()
	}
	pem, err := os.ReadFile(ca)
	if err != nil {
		iss.stop()
		return nil, err
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(pem)
	iss.client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, MaxIdleConnsPerHost: 8}}
	iss.url = ready.URL
	iss.env = []string{"MS_TENANT_ID=" + ready.TenantID, "MS_CLIENT_ID=" + ready.ClientID, "MS_AUTHORITY=" + ready.Authority, "MS_CA_FILE=" + ca}
	logf("test OpenID Connect issuer pid %d at %s", cmd.Process.Pid, ready.URL)
	return iss, nil
}

func (i *issuer) stop() {
	_ = i.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-i.done:
	case <-time.After(10 * time.Second):
		_ = i.cmd.Process.Kill()
		<-i.done
	}
	os.RemoveAll(i.dir)
}

// prepareMicrosoft gets each student a nonce from the server and an ID token
// carrying it from the issuer, before the measured run: the issuer's RSA
// signatures would otherwise compete with the server for the same cores,
// where at Microsoft they happen elsewhere.
func prepareMicrosoft(ctx context.Context, o options, iss *issuer, fx *fixture, base string) error {
	t0 := time.Now()
	err := benchkit.Parallel(ctx, o.setupJobs, len(fx.students), func(i int) error {
		st := fx.students[i]
		res, err := benchkit.Do(ctx, st.client, http.MethodPost, base+"/api/auth/microsoft/start", "", "", nil,
			map[string]string{"X-Forwarded-For": st.addr})
		if err != nil {
			return err
		}
		if st.nonce = res.Cookie(nonceCookie); res.Status != http.StatusOK || st.nonce == "" {
			return fmt.Errorf("microsoft start: %d %s", res.Status, res.Body)
		}
		body := mustJSON(map[string]any{"user": map[string]string{"email": st.email, "name": st.name, "oid": st.oid}, "nonce": st.nonce})
		tres, err := benchkit.Do(ctx, iss.client, http.MethodPost, iss.url+"/_control/id-token", "", "application/json", body, nil)
		if err != nil {
			return err
		}
		var tok struct {
			IDToken string `json:"idToken"`
		}
		if tres.Status != http.StatusOK || json.Unmarshal(tres.Body, &tok) != nil || tok.IDToken == "" {
			return fmt.Errorf("issuer id-token: %d %s", tres.Status, tres.Body)
		}
		st.idToken = tok.IDToken
		return nil
	})
	if err == nil {
		logf("%d nonces and ID tokens ready in %.0fs", len(fx.students), time.Since(t0).Seconds())
	}
	return err
}
