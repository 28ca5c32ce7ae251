// Command examday-bench is the exam-day load benchmark, not part of the
// product: a whole cohort rehearsing at once against a real server. N
// students (1,000) each sign in and run a whole simulacro in real time —
// draw a case, save notes during the preparation, record every recorded
// phase as an 8 kB chunk every 2 s through one upload queue (as the
// browser does: one request at a time, retried with backoff, honouring
// Retry-After), advance through every phase, register the takes, complete
// them and self-assess — while tutors poll the grading queue and the group
// report. Phases are short (ALLOW_SHORT_TIMINGS=true: preparation 20 s,
// presentation 60 s, 2 × (think 4 s, answer 10 s), closing 6 s), so a run
// takes about three minutes.
//
// Modes (-mode):
//
//	ramp     sign-ins spread evenly over -ramp (60 s)
//	storm    every sign-in within -storm (10 s): a tutor told everyone to
//	         start at the same minute
//	compare  per-request throughput side by side with a PocketBase peer
//	         (bench/pbpeer) and GET /api/session under wrk against a bare
//	         Echo handler (see compare.go)
//
// Sign-in (-signin): password (POST /api/auth/login) or microsoft (ID
// tokens signed by bin/oidc-test-issuer, which the server is pointed at as
// its Entra ID tenant). Client addresses (-addresses): each student its own
// X-Forwarded-For address by default (the server runs with TRUST_PROXY=true,
// as behind Cloud Run); -addresses 1 is a campus behind one NAT.
//
// Targets (-target): sqlite (the default store, one instance), postgres
// (DATABASE_URL from -database-url or TEST_DATABASE_URL, e.g. under
// scripts/with-postgres.sh), or -url: any running deployment (then -data-dir
// or -database-url let the terminal commands create the users, and -pids the
// processes whose memory and CPU are sampled), or cluster: two instances on
// one PostgreSQL database and one bucket (fake Cloud Storage) behind a
// round-robin proxy, as on Cloud Run.
//
// Setup — users (terminal commands), tutors' groups and the short
// blueprint (API) — is not measured. For the sqlite and postgres targets it
// is made once per binary and size, into a template (a copied database
// file, or a PostgreSQL template database), and each run starts from a fresh
// copy.
//
// The summary (per endpoint: count, statuses, p50/p95/p99/max; server RSS
// and CPU; load average and CPU pressure) is printed and written as JSON
// (-out, default .bench/examday-…json). With -budgets (default) the exit
// status is 1 when a budget of the mode is missed, and the missed ones are
// named (docs/performance.md lists them).
//
//	go run ./backend/cmd/examday-bench -mode ramp
//	go run ./backend/cmd/examday-bench -mode storm -signin microsoft -addresses 1
//	scripts/with-postgres.sh go run ./backend/cmd/examday-bench -mode storm -target postgres
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/utpl/simulador/bench/benchkit"
)

type options struct {
	mode      string
	students  int
	tutors    int
	ramp      time.Duration
	storm     time.Duration
	signin    string
	addresses int
	flood     int

	target      string
	url         string
	databaseURL string
	dataDir     string
	pids        string
	media       string

	bin       string
	issuerBin string
	gcsBin    string
	tmp       string
	out       string
	keep      bool
	logLevel  string
	budgets   bool
	noCache   bool
	setupJobs int
	env       string
	profile   string

	blueprint  blueprint
	chunkBytes int
	chunkEvery time.Duration
	notesEvery time.Duration
	pollEvery  time.Duration
	timeout    time.Duration

	// compare mode
	peerBin     string
	compareFor  time.Duration
	compareConc int
	rounds      int
	wrkFor      time.Duration
	wrkConns    int
	bareEcho    string
	only        string
}

// blueprint is the short exam of the benchmark.
type blueprint struct {
	preparation, presentation, think, answer, closing time.Duration
	questions                                         int
}

func main() {
	var o options
	flag.StringVar(&o.mode, "mode", "ramp", "ramp, storm or compare")
	flag.IntVar(&o.students, "students", 1000, "students rehearsing")
	flag.IntVar(&o.tutors, "tutors", 3, "tutors, each with a group of students/tutors, polling the grading queue and the report")
	flag.DurationVar(&o.ramp, "ramp", time.Minute, "ramp: the sign-ins are spread evenly over this time")
	flag.DurationVar(&o.storm, "storm", 10*time.Second, "storm: every sign-in starts within this time")
	flag.StringVar(&o.signin, "signin", "password", "password or microsoft (tokens from -issuer-bin)")
	flag.IntVar(&o.addresses, "addresses", 0, "distinct client addresses (X-Forwarded-For; the server trusts the proxy); 0 = one per student, 1 = a campus behind one NAT")
	flag.IntVar(&o.flood, "flood", 0, "ramp or storm: this many concurrent clients send sign-ins for made-up accounts from ever-new addresses during the sign-in window, while the owner of a real account signs in (see flood.go); 0 = no flood")
	flag.StringVar(&o.target, "target", "sqlite", "sqlite, postgres or cluster (see -url)")
	flag.StringVar(&o.url, "url", "", "base URL of a running deployment instead of a server started here")
	flag.StringVar(&o.databaseURL, "database-url", "", "postgres target (or -url): the PostgreSQL URL; default $TEST_DATABASE_URL, then $DATABASE_URL")
	flag.StringVar(&o.dataDir, "data-dir", "", "with -url on SQLite: the server's DATA_DIR, for `simulador users create`")
	flag.StringVar(&o.pids, "pids", "", "with -url: comma-separated process ids whose RSS and CPU are sampled (the instances, the database)")
	flag.StringVar(&o.media, "media", "directory", "recordings in DATA_DIR/media (directory) or in a bucket of -gcs-bin (bucket)")
	flag.StringVar(&o.bin, "bin", "bin/simulador", "the simulador binary (server and terminal commands)")
	flag.StringVar(&o.issuerBin, "issuer-bin", "bin/oidc-test-issuer", "microsoft sign-in: the test OpenID Connect issuer")
	flag.StringVar(&o.gcsBin, "gcs-bin", "bin/gcs-test-server", "-media bucket: the fake Cloud Storage server")
	flag.StringVar(&o.tmp, "tmp", ".bench", "where data directories and templates go")
	flag.StringVar(&o.out, "out", "", "write the summary as JSON here (default .bench/examday-TARGET-MODE-SIGNIN-N.json)")
	flag.BoolVar(&o.keep, "keep", false, "keep the run's DATA_DIR (database, media, server.log)")
	flag.StringVar(&o.logLevel, "log-level", "info", "LOG_LEVEL of the server")
	flag.BoolVar(&o.budgets, "budgets", true, "check the budgets of the mode and exit 1 when one is missed")
	flag.BoolVar(&o.noCache, "no-template-cache", false, "make the setup again instead of reusing a template")
	flag.IntVar(&o.setupJobs, "setup-jobs", 4, "concurrent terminal commands and sign-ins during setup")
	flag.StringVar(&o.env, "env", "", "more server environment, space-separated KEY=VALUE")
	flag.StringVar(&o.profile, "cpuprofile", "", "fetch a CPU profile of the server during the run from its debug listener into this file (needs DEBUG_ADDR support)")

	flag.DurationVar(&o.blueprint.preparation, "preparation", 20*time.Second, "preparation phase")
	flag.DurationVar(&o.blueprint.presentation, "presentation", 60*time.Second, "presentation phase (recorded)")
	flag.IntVar(&o.blueprint.questions, "questions", 2, "tribunal questions (think + answer each)")
	flag.DurationVar(&o.blueprint.think, "think", 4*time.Second, "think phase")
	flag.DurationVar(&o.blueprint.answer, "answer", 10*time.Second, "answer phase (recorded)")
	flag.DurationVar(&o.blueprint.closing, "closing", 6*time.Second, "closing phase (recorded)")
	flag.IntVar(&o.chunkBytes, "chunk-bytes", 8000, "bytes per chunk (Opus at 32 kbit/s × 2 s ≈ 8 kB)")
	flag.DurationVar(&o.chunkEvery, "chunk-every", 2*time.Second, "time between chunks of a recording")
	flag.DurationVar(&o.notesEvery, "notes-every", 10*time.Second, "time between note saves during the preparation")
	flag.DurationVar(&o.pollEvery, "poll-every", 10*time.Second, "time between a tutor's polls of the grading queue and the report")
	flag.DurationVar(&o.timeout, "timeout", 60*time.Second, "client timeout of one request")

	flag.StringVar(&o.peerBin, "peer-bin", "bin/pbpeer", "compare: the PocketBase peer (bench/pbpeer)")
	flag.DurationVar(&o.compareFor, "compare-for", 10*time.Second, "compare: length of one closed-loop measurement")
	flag.IntVar(&o.compareConc, "compare-workers", 64, "compare: concurrent closed-loop workers (users, each with its own connection)")
	flag.IntVar(&o.rounds, "rounds", 3, "compare: alternated rounds")
	flag.DurationVar(&o.wrkFor, "wrk-for", 20*time.Second, "compare: length of one wrk run")
	flag.IntVar(&o.wrkConns, "wrk-connections", 64, "compare: wrk connections")
	flag.StringVar(&o.only, "only", "", "compare: only the measurements whose name contains this (read, notes, chunk, wrk)")
	flag.StringVar(&o.bareEcho, "bare-echo", "", "internal: serve a bare Echo handler on this address (compare mode starts it)")
	printKey := flag.Bool("print-template-key", false, "print the name of the template this run would use, and exit")
	flag.Parse()

	if o.bareEcho != "" {
		if err := serveBareEcho(o.bareEcho); err != nil {
			fmt.Fprintln(os.Stderr, "examday-bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := o.validate(); err != nil {
		fmt.Fprintln(os.Stderr, "examday-bench:", err)
		os.Exit(2)
	}
	if *printKey {
		key, err := templateKey(o)
		if err != nil {
			fmt.Fprintln(os.Stderr, "examday-bench:", err)
			os.Exit(1)
		}
		fmt.Println(key)
		return
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var (
		pass bool
		err  error
	)
	if o.mode == "compare" {
		pass, err = runCompare(ctx, o)
	} else {
		pass, err = runExamDay(ctx, o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "examday-bench:", err)
		os.Exit(1)
	}
	if !pass {
		os.Exit(1)
	}
}

func (o *options) validate() error {
	switch o.mode {
	case "ramp", "storm", "compare":
	default:
		return fmt.Errorf("-mode must be ramp, storm or compare, not %q", o.mode)
	}
	switch o.signin {
	case "password", "microsoft":
	default:
		return fmt.Errorf("-signin must be password or microsoft, not %q", o.signin)
	}
	switch o.target {
	case "sqlite", "postgres":
	case "cluster":
		// Two instances share a store and a bucket.
		o.media = "bucket"
	default:
		return fmt.Errorf("-target must be sqlite, postgres or cluster, not %q", o.target)
	}
	if o.media != "directory" && o.media != "bucket" {
		return errors.New("-media must be directory or bucket")
	}
	if o.students < 1 || o.tutors < 1 || o.tutors > o.students {
		return errors.New("need -students ≥ 1 and 1 ≤ -tutors ≤ -students")
	}
	if o.students/o.tutors > 5000 {
		return errors.New("a group holds at most 5,000 students: raise -tutors")
	}
	if o.flood < 0 {
		return errors.New("-flood must be ≥ 0")
	}
	if o.addresses < 0 {
		return errors.New("-addresses must be ≥ 0")
	}
	if o.addresses == 0 {
		o.addresses = o.students
	}
	if o.databaseURL == "" && (o.target == "postgres" || o.url != "") {
		o.databaseURL = os.Getenv("TEST_DATABASE_URL")
		if o.databaseURL == "" {
			o.databaseURL = os.Getenv("DATABASE_URL")
		}
	}
	if o.databaseURL == "" && (o.target == "cluster") {
		o.databaseURL = os.Getenv("TEST_DATABASE_URL")
	}
	if (o.target == "postgres" || o.target == "cluster") && o.databaseURL == "" && o.url == "" {
		return errors.New("-target " + o.target + " needs -database-url (or run under scripts/with-postgres.sh)")
	}
	if o.url != "" && o.dataDir == "" && o.databaseURL == "" {
		return errors.New("-url needs -data-dir (SQLite) or -database-url (PostgreSQL) for the terminal commands that create the users")
	}
	if o.out == "" {
		target := o.target
		if o.url != "" && o.target != "cluster" {
			target = "url"
		}
		name := fmt.Sprintf("examday-%s-%s-%s-%d", target, o.mode, o.signin, o.students)
		if o.mode == "compare" {
			name = "examday-compare-" + target
		}
		if o.addresses == 1 && o.mode != "compare" {
			name += "-nat"
		}
		if o.flood > 0 && o.mode != "compare" {
			name += "-flood"
		}
		o.out = o.tmp + "/" + name + ".json"
	}
	return nil
}

func (o options) pidList() ([]int, error) {
	var out []int
	for _, f := range strings.FieldsFunc(o.pids, func(r rune) bool { return r == ',' || r == ' ' }) {
		p, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("-pids: %q is not a process id", f)
		}
		out = append(out, p)
	}
	return out, nil
}

func logf(format string, args ...any) { benchkit.Logf(format, args...) }
