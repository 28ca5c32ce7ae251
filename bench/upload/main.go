// Command upload-bench is a load benchmark of the recording upload, not part
// of the product. It checks the budget of the upload: N students (200)
// recording at once, each uploading its presentation (10 minutes of Opus)
// in 2-second chunks, with no error, server memory growth under 200 MB and a
// p99 chunk acknowledgement under 100 ms — 150 ms with -media bucket, where
// each acknowledgement waits for an upload to a Cloud Storage bucket (here
// fake-gcs-server, bin/gcs-test-server, started as a child process on a
// free port and given to the server as MEDIA_BUCKET and
// STORAGE_EMULATOR_HOST).
//
// By default it starts `bin/simulador serve` as a child process on a
// temporary DATA_DIR and a free port; -url targets a server already running
// instead (then -data-dir must be that server's DATA_DIR, so the users can
// be created with the CLI, and -pid its process id to sample its memory).
// Setup creates one tutor and N students with `simulador users create`,
// loads one group with every student, signs each one in, starts one
// simulacro attempt each and advances it to the presentation. Then N uploaders run at once, each sending a chunk
// of random bytes (Opus at 32 kbit/s × 2 s ≈ 8 kB) every -interval for
// -duration, in real time, with the X-Chunk-SHA256 header, and timing each
// PUT until its acknowledgement. Nothing is retried: any non-2xx response is
// an error. Each recording is then completed and checked.
//
// The server's resident memory (VmRSS) and the load average are sampled
// every second. The summary is printed, and written as JSON with -out; the
// exit status is 1 when the budget is not met.
//
//	go run ./backend/cmd/upload-bench -duration 1m -out .bench/upload.json
//	go run ./backend/cmd/upload-bench -duration 1m -media bucket -gcs-bin bin/gcs-test-server
//
// With -cluster it starts two servers on one PostgreSQL database (a new
// one on the server TEST_DATABASE_URL names: make bench runs it under
// scripts/with-postgres.sh) and one fake bucket, behind a round-robin
// proxy in this process, as Cloud Run runs several instances: consecutive
// requests alternate between the two. Memory and CPU are the two servers'
// sums; the budget is the bucket's.
//
//	scripts/with-postgres.sh go run ./backend/cmd/upload-bench -cluster -duration 1m
package main

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/utpl/simulador/bench/benchkit"
)

// The upload budget (README.md, "Tests"): 200 students recording at once for
// 10 minutes.
const (
	budgetP99       = 100 * time.Millisecond
	budgetP99Bucket = 150 * time.Millisecond // a chunk is acknowledged once the bucket has it
	budgetRSSGrowth = 200e6                  // bytes
)

// The media stores the child server can use (-media).
const (
	mediaDirectory = "directory"
	mediaBucket    = "bucket"
)

const (
	password   = "bench-password-1234"
	mimeType   = "audio/webm;codecs=opus"
	presPhase  = 1 // the presentation, recorded, in the default blueprint
	setupCalls = 4 // concurrent sign-ins and CLI runs during setup (argon2id)
)

type options struct {
	students    int
	duration    time.Duration
	interval    time.Duration
	chunkBytes  int
	url         string
	bin         string
	dataDir     string
	tmp         string
	pid         int
	keep        bool
	out         string
	logLevel    string
	cpuprofile  string
	perf        string
	setupWorker int
	media       string
	gcsBin      string
	cluster     bool
}

func main() {
	var o options
	flag.IntVar(&o.students, "students", 200, "concurrent recordings (one student each)")
	flag.DurationVar(&o.duration, "duration", 10*time.Minute, "length of each recording (real time)")
	flag.DurationVar(&o.interval, "interval", 2*time.Second, "time between chunks of one recording")
	flag.IntVar(&o.chunkBytes, "chunk-bytes", 8000, "bytes per chunk (Opus at 32 kbit/s × 2 s ≈ 8 kB)")
	flag.StringVar(&o.url, "url", "", "base URL of a running server (default: start -bin serve on a temporary DATA_DIR)")
	flag.StringVar(&o.bin, "bin", "bin/simulador", "the simulador binary (server and users CLI)")
	flag.StringVar(&o.dataDir, "data-dir", "", "with -url: the server's DATA_DIR, for `simulador users create`")
	flag.StringVar(&o.tmp, "tmp", "", "parent directory of the temporary DATA_DIR (default: the system's temporary directory)")
	flag.IntVar(&o.pid, "pid", 0, "with -url: the server's process id, to sample its memory")
	flag.BoolVar(&o.keep, "keep", false, "keep the temporary DATA_DIR (database, media, server.log)")
	flag.StringVar(&o.out, "out", "", "write the summary as JSON to this file")
	flag.StringVar(&o.logLevel, "log-level", "info", "LOG_LEVEL of the child server")
	flag.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of this tool (the load generator) to this file")
	flag.StringVar(&o.perf, "perf", "", "record the server during the upload with Linux perf (perf record -g) into this file; "+
		"read it with perf report (or start the server with DEBUG_ADDR for Go's profiler)")
	flag.IntVar(&o.setupWorker, "setup-workers", setupCalls, "concurrent CLI runs and sign-ins during setup")
	flag.StringVar(&o.media, "media", mediaDirectory, "where the child server keeps recordings: directory (DATA_DIR/media) or bucket "+
		"(a bucket of -gcs-bin, fake Cloud Storage)")
	flag.StringVar(&o.gcsBin, "gcs-bin", "bin/gcs-test-server", "with -media bucket: the fake Cloud Storage server binary")
	flag.BoolVar(&o.cluster, "cluster", false, "two servers on one PostgreSQL database (a new one on TEST_DATABASE_URL's server) and one fake bucket, "+
		"behind a round-robin proxy (implies -media bucket)")
	flag.Parse()
	if o.cluster {
		o.media = mediaBucket
		if o.url != "" || os.Getenv("TEST_DATABASE_URL") == "" {
			fmt.Fprintln(os.Stderr, "upload-bench: -cluster starts its own servers on the PostgreSQL server TEST_DATABASE_URL names (run it under scripts/with-postgres.sh), so no -url")
			os.Exit(2)
		}
	}
	if o.media != mediaDirectory && o.media != mediaBucket {
		fmt.Fprintln(os.Stderr, "upload-bench: -media must be directory or bucket")
		os.Exit(2)
	}
	if o.url != "" && o.media == mediaBucket {
		fmt.Fprintln(os.Stderr, "upload-bench: -media bucket starts its own server; with -url the server's own configuration decides")
		os.Exit(2)
	}
	if o.students < 1 || o.interval <= 0 || o.duration < o.interval || o.chunkBytes < 1 {
		fmt.Fprintln(os.Stderr, "upload-bench: need -students ≥ 1, -interval > 0, -duration ≥ -interval, -chunk-bytes ≥ 1")
		os.Exit(2)
	}
	if o.url != "" && o.dataDir == "" {
		fmt.Fprintln(os.Stderr, "upload-bench: -url needs -data-dir (the server's DATA_DIR) to create the users")
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := run(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "upload-bench:", err)
		os.Exit(1)
	}
	if !sum.Pass {
		os.Exit(1)
	}
}

// summary is the result, printed and written as JSON.
type summary struct {
	Started     time.Time `json:"started"`
	Students    int       `json:"students"`
	Duration    string    `json:"duration"`
	Interval    string    `json:"interval"`
	ChunkBytes  int       `json:"chunkBytes"`
	Target      string    `json:"target"`
	Media       string    `json:"media"`             // directory or bucket (of the child server)
	Cluster     bool      `json:"cluster,omitempty"` // two servers on PostgreSQL behind a round-robin proxy
	GoVersion   string    `json:"goVersion"`
	CPUs        int       `json:"cpus"`
	SetupSecs   float64   `json:"setupSeconds"`
	UploadSecs  float64   `json:"uploadSeconds"`
	ChunksPlan  int       `json:"chunksPlanned"`
	ChunksSent  int64     `json:"chunksSent"`
	ChunksOK    int64     `json:"chunksAcknowledged"`
	BytesOK     int64     `json:"bytesAcknowledged"`
	Completed   int64     `json:"recordingsCompleted"`
	Errors      int64     `json:"errors"`
	ErrorSample []string  `json:"errorSample,omitempty"`

	LatencyMs benchkit.Latencies `json:"latencyMs"`
	// Windows are the latencies of the chunks sent in each 10 s.
	Windows      []window `json:"windows"`
	ChunksPerSec float64  `json:"chunksPerSecond"`
	KBPerSec     float64  `json:"kilobytesPerSecond"`
	// MaxLagMs is how late the worst chunk was sent after its due time (an
	// uploader still waiting for the previous acknowledgement).
	MaxLagMs float64 `json:"maxSendLagMs"`

	// Server memory (VmRSS): when started, after the setup, the lowest
	// value before the largest rise (baseline), the peak, the largest rise
	// (growth, judged against the budget) and at the end.
	RSSMeasured      bool    `json:"rssMeasured"`
	RSSFreshMiB      float64 `json:"rssFreshMiB"`
	RSSAfterSetupMiB float64 `json:"rssAfterSetupMiB"`
	RSSBaselineMiB   float64 `json:"rssBaselineMiB"`
	RSSPeakMiB       float64 `json:"rssPeakMiB"`
	RSSGrowthMiB     float64 `json:"rssGrowthMiB"`
	RSSEndMiB        float64 `json:"rssEndMiB"`
	ServerCPUPct     float64 `json:"serverCpuPercent"` // of one core, during the upload
	ToolCPUPct       float64 `json:"toolCpuPercent"`   // this load generator, same unit

	LoadStart [3]float64 `json:"loadAverageAtStart"`
	LoadEnd   [3]float64 `json:"loadAverageAtEnd"`
	LoadMax1  float64    `json:"loadAverage1mMax"`
	LoadMean1 float64    `json:"loadAverage1mMean"`
	// Pressure stall information over the upload: the share of time some
	// task of the machine waited for a CPU or for I/O (other users of the
	// machine included); -1 when /proc/pressure is missing.
	CPUPressurePct float64  `json:"cpuPressureSomePercent"`
	IOPressurePct  float64  `json:"ioPressureSomePercent"`
	DataDirMiB     float64  `json:"dataDirMiB,omitempty"`
	ProxyServed    []int64  `json:"proxyServed,omitempty"` // -cluster: requests sent to each server
	Checks         []check  `json:"checks"`
	Pass           bool     `json:"pass"`
	SamplesEach    string   `json:"samplesEvery"`
	Samples        []sample `json:"samples"`
}

type check struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Budget string `json:"budget"`
	Pass   bool   `json:"pass"`
}

type sample struct {
	T      float64 `json:"t"` // seconds since the upload started (negative: setup)
	RSSMiB float64 `json:"rssMiB,omitempty"`
	Load1  float64 `json:"load1"`
}

func run(ctx context.Context, o options) (*summary, error) {
	if o.cpuprofile != "" {
		f, err := os.Create(o.cpuprofile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return nil, err
		}
		defer pprof.StopCPUProfile()
	}
	sum := &summary{Started: time.Now().UTC(), Students: o.students, Duration: o.duration.String(), Interval: o.interval.String(),
		ChunkBytes: o.chunkBytes, GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), SamplesEach: "1s", Media: o.media, Cluster: o.cluster}
	if o.url != "" {
		sum.Media = "of the running server"
	}
	sum.LoadStart = benchkit.LoadAvg()
	setupStart := time.Now()

	base, pid, dataDir := o.url, o.pid, o.dataDir
	pids := []int{o.pid}
	cliEnv := []string{"DATA_DIR=" + dataDir} // where the terminal commands find the store
	var prox *benchkit.RoundRobin
	if base == "" {
		if o.tmp != "" {
			if err := os.MkdirAll(o.tmp, 0o755); err != nil {
				return nil, err
			}
		}
		dir, err := os.MkdirTemp(o.tmp, "upload-bench-")
		if err != nil {
			return nil, err
		}
		dataDir = dir
		if o.keep {
			fmt.Fprintln(os.Stderr, "DATA_DIR kept at", dir)
		} else {
			defer os.RemoveAll(dir)
		}
		var env []string
		if o.media == mediaBucket {
			root, err := benchkit.FakeGCSRoot(o.tmp)
			if err != nil {
				return nil, err
			}
			defer os.RemoveAll(root)
			gcs, err := benchkit.StartGCS(ctx, o.gcsBin, root, "bench-grabaciones")
			if err != nil {
				return nil, err
			}
			defer gcs.Stop()
			env = append(env, "MEDIA_BUCKET="+gcs.Bucket, "STORAGE_EMULATOR_HOST="+gcs.Host)
		}
		cliEnv = []string{"DATA_DIR=" + dir}
		if o.cluster {
			dbURL, drop, err := freshDatabase(ctx, os.Getenv("TEST_DATABASE_URL"))
			if err != nil {
				return nil, err
			}
			defer drop()
			env = append(env, "DATABASE_URL="+dbURL)
			cliEnv = append(cliEnv, "DATABASE_URL="+dbURL)
		}
		srv, err := benchkit.StartServer(ctx, benchkit.ServerOptions{Bin: o.bin, DataDir: dir, LogLevel: o.logLevel, Env: env})
		if err != nil {
			return nil, err
		}
		defer srv.Stop()
		base, pid = srv.URL, srv.PID()
		pids = []int{pid}
		if o.cluster {
			second := filepath.Join(dir, "second")
			if err := os.MkdirAll(second, 0o755); err != nil {
				return nil, err
			}
			srv2, err := benchkit.StartServer(ctx, benchkit.ServerOptions{Bin: o.bin, DataDir: second, LogLevel: o.logLevel, Env: env})
			if err != nil {
				return nil, err
			}
			defer srv2.Stop()
			pids = append(pids, srv2.PID())
			proxy, err := benchkit.StartRoundRobin(srv.URL, srv2.URL)
			if err != nil {
				return nil, err
			}
			defer proxy.Close()
			benchkit.Logf("round-robin proxy at %s", proxy.URL)
			base, prox = proxy.URL, proxy
		}
		sum.RSSFreshMiB = benchkit.TotalRSSMiB(pids...)
	}
	base = strings.TrimRight(base, "/")
	sum.Target = base

	s, err := setup(ctx, o, base, cliEnv)
	if err != nil {
		return nil, fmt.Errorf("setup: %w", err)
	}
	sum.SetupSecs = time.Since(setupStart).Seconds()
	benchkit.Logf("setup done in %.0fs: %d students signed in, one attempt and one recording each", sum.SetupSecs, len(s.students))

	mon := benchkit.NewMonitor(pids...)
	mon.Start(ctx)
	stopPerf := func() {}
	if o.perf != "" {
		if stopPerf, err = benchkit.StartPerf(o.perf, pid); err != nil {
			return nil, err
		}
	}
	origin := upload(ctx, o, base, s, sum, mon, pids)
	if prox != nil {
		sum.ProxyServed = prox.Served()
	}
	stopPerf()
	summarizeMemory(sum, pid, mon.Stop(origin))
	sum.LoadEnd = benchkit.LoadAvg()
	if o.url == "" {
		sum.DataDirMiB = float64(benchkit.DirSize(dataDir)) / (1 << 20)
	}
	judge(sum)
	printSummary(os.Stdout, sum)
	if o.out != "" {
		if err := benchkit.WriteJSON(o.out, sum); err != nil {
			return sum, err
		}
	}
	return sum, nil
}

// --- setup ---

type student struct {
	email     string
	cookie    string
	attemptID string
	recID     string
	client    *http.Client
}

type setupResult struct {
	students []*student
}

func setup(ctx context.Context, o options, base string, cliEnv []string) (*setupResult, error) {
	run := strconv.FormatInt(time.Now().Unix(), 36) // fresh accounts on a reused server
	tutorEmail := "bench-" + run + "-tutor@utpl.edu.ec"
	students := make([]*student, o.students)
	for i := range students {
		students[i] = &student{email: fmt.Sprintf("bench-%s-s%04d@utpl.edu.ec", run, i), recID: fmt.Sprintf("bench-%s-rec-%04d", run, i),
			client: benchkit.NewClient(60 * time.Second)}
	}

	// The tutor first (it may migrate a fresh database), then the students.
	t0 := time.Now()
	if err := benchkit.CreateUser(ctx, o.bin, cliEnv, tutorEmail, "tutor", password); err != nil {
		return nil, err
	}
	if err := benchkit.Parallel(ctx, o.setupWorker, len(students), func(i int) error {
		return benchkit.CreateUser(ctx, o.bin, cliEnv, students[i].email, "estudiante", password)
	}); err != nil {
		return nil, err
	}
	benchkit.Logf("created 1 tutor and %d students with the CLI in %.0fs", len(students), time.Since(t0).Seconds())

	tutorClient := benchkit.NewClient(60 * time.Second)
	tutorCookie, err := login(ctx, tutorClient, base, tutorEmail)
	if err != nil {
		return nil, err
	}
	var csv strings.Builder
	csv.WriteString("email,degree,name,department,faculty,modality\n")
	for _, s := range students {
		csv.WriteString(s.email + ",Derecho\n")
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "grupo.csv")
	_, _ = io.WriteString(fw, csv.String())
	_ = mw.Close()
	res, err := benchkit.Do(ctx, tutorClient, http.MethodPost, base+"/api/admin/group", tutorCookie, mw.FormDataContentType(), body.Bytes(), nil)
	if err != nil {
		return nil, fmt.Errorf("load group: %w", err)
	}
	if res.Status != http.StatusCreated {
		return nil, fmt.Errorf("load group: %d %s", res.Status, res.Body)
	}

	t0 = time.Now()
	err = benchkit.Parallel(ctx, o.setupWorker, len(students), func(i int) error {
		s := students[i]
		var err error
		if s.cookie, err = login(ctx, s.client, base, s.email); err != nil {
			return err
		}
		res, err := benchkit.DoJSON(ctx, s.client, http.MethodPost, base+"/api/attempts", s.cookie, map[string]string{"mode": "simulacro"}, nil)
		if err != nil {
			return err
		}
		if res.Status != http.StatusCreated {
			return fmt.Errorf("start attempt of %s: %d %s", s.email, res.Status, res.Body)
		}
		var a struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(res.Body, &a); err != nil || a.ID == "" {
			return fmt.Errorf("start attempt of %s: %v %s", s.email, err, res.Body)
		}
		s.attemptID = a.ID
		// The server refuses a take of a phase that has not started: end the
		// preparation first, as the student's browser does.
		res, err = benchkit.DoJSON(ctx, s.client, http.MethodPost, base+"/api/attempts/"+a.ID+"/advance", s.cookie, map[string]int{"from": presPhase - 1}, nil)
		if err != nil {
			return err
		}
		if res.Status != http.StatusOK {
			return fmt.Errorf("start the presentation of %s: %d %s", s.email, res.Status, res.Body)
		}
		res, err = benchkit.DoJSON(ctx, s.client, http.MethodPut, recURL(base, s), s.cookie, map[string]any{"phase": presPhase, "mimeType": mimeType}, nil)
		if err != nil {
			return err
		}
		if res.Status != http.StatusOK {
			return fmt.Errorf("register recording of %s: %d %s", s.email, res.Status, res.Body)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	benchkit.Logf("signed in %d students and started their attempts in %.0fs", len(students), time.Since(t0).Seconds())
	return &setupResult{students: students}, nil
}

func login(ctx context.Context, c *http.Client, base, email string) (string, error) {
	res, err := benchkit.DoJSON(ctx, c, http.MethodPost, base+"/api/auth/login", "", map[string]string{"email": email, "password": password}, nil)
	if err != nil {
		return "", err
	}
	if res.Status != http.StatusOK {
		return "", fmt.Errorf("sign in %s: %d %s", email, res.Status, res.Body)
	}
	if ck := res.Cookie(benchkit.SessionCookie); ck != "" {
		return ck, nil
	}
	return "", fmt.Errorf("sign in %s: no session cookie", email)
}

// --- HTTP ---

func recURL(base string, s *student) string {
	return base + "/api/attempts/" + s.attemptID + "/recordings/" + s.recID
}

// --- the upload ---

type errorLog struct {
	mu     sync.Mutex
	n      atomic.Int64
	sample []string
}

func (e *errorLog) add(format string, args ...any) {
	if e.n.Add(1) <= 20 {
		msg := fmt.Sprintf(format, args...)
		e.mu.Lock()
		e.sample = append(e.sample, msg)
		e.mu.Unlock()
		benchkit.Logf("error: %s", msg)
	}
}

// upload runs the uploaders and returns when they started.
func upload(ctx context.Context, o options, base string, s *setupResult, sum *summary, mon *benchkit.Monitor, pids []int) time.Time {
	n := len(s.students)
	chunks := int(o.duration / o.interval)
	sum.ChunksPlan = n * chunks
	var (
		errs      errorLog
		sent, ok  atomic.Int64
		okBytes   atomic.Int64
		completed atomic.Int64
		maxLag    atomic.Int64
	)
	lat := make([][]ack, n)
	benchkit.Logf("uploading: %d recordings × %d chunks of %d bytes, one every %s per recording (%.0f chunks/s)",
		n, chunks, o.chunkBytes, o.interval, float64(n)/o.interval.Seconds())

	start := time.Now().Add(200 * time.Millisecond)
	usage := benchkit.StartUsage(pids...)
	var wg sync.WaitGroup
	for i, st := range s.students {
		// Spread the students over one interval, as real recorders start at
		// different moments.
		offset := time.Duration(int64(o.interval) * int64(i) / int64(n))
		rng := rand.NewChaCha8([32]byte{byte(i), byte(i >> 8)})
		wg.Go(func() {
			lat[i] = make([]ack, 0, chunks)
			buf := make([]byte, o.chunkBytes)
			for seq := range chunks {
				due := start.Add(offset + time.Duration(seq)*o.interval)
				if d := time.Until(due); d > 0 {
					select {
					case <-time.After(d):
					case <-ctx.Done():
						return
					}
				} else if lag := int64(-d); lag > maxLag.Load() {
					maxLag.Store(lag) // racy max: good enough for a report
				}
				_, _ = rng.Read(buf)
				sha := sha256.Sum256(buf)
				url := recURL(base, st) + "/chunks/" + strconv.Itoa(seq)
				sent.Add(1)
				t := time.Now()
				res, err := benchkit.Do(ctx, st.client, http.MethodPut, url, st.cookie, "application/octet-stream", buf,
					map[string]string{"X-Chunk-SHA256": hex.EncodeToString(sha[:])})
				d := time.Since(t)
				switch {
				case err != nil:
					if ctx.Err() != nil {
						return
					}
					errs.add("%s chunk %d: %v", st.email, seq, err)
				case res.Status/100 != 2:
					errs.add("%s chunk %d: %d %s", st.email, seq, res.Status, res.Body)
				default:
					lat[i] = append(lat[i], ack{at: t.Sub(start), d: d})
					ok.Add(1)
					okBytes.Add(int64(o.chunkBytes))
				}
			}
			res, err := benchkit.DoJSON(ctx, st.client, http.MethodPost, recURL(base, st)+"/complete", st.cookie,
				map[string]any{"chunks": chunks, "durationMs": (time.Duration(chunks) * o.interval).Milliseconds()}, nil)
			if err != nil {
				errs.add("%s complete: %v", st.email, err)
				return
			}
			var r struct {
				Complete bool  `json:"complete"`
				Chunks   int   `json:"chunks"`
				Bytes    int64 `json:"bytes"`
			}
			if res.Status != http.StatusOK || json.Unmarshal(res.Body, &r) != nil {
				errs.add("%s complete: %d %s", st.email, res.Status, res.Body)
				return
			}
			if !r.Complete || r.Chunks != chunks || r.Bytes != int64(chunks*o.chunkBytes) {
				errs.add("%s complete: got complete=%v chunks=%d bytes=%d, want true %d %d", st.email, r.Complete, r.Chunks, r.Bytes,
					chunks, chunks*o.chunkBytes)
				return
			}
			completed.Add(1)
		})
	}
	progress := time.NewTicker(30 * time.Second)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
loop:
	for {
		select {
		case <-done:
			break loop
		case <-progress.C:
			benchkit.Logf("%4.0fs: %d chunks acknowledged, %d errors, server RSS %.0f MiB, load %.2f",
				time.Since(start).Seconds(), ok.Load(), errs.n.Load(), mon.Current(), benchkit.LoadAvg()[0])
		}
	}
	progress.Stop()
	elapsed := time.Since(start)
	u := usage.Stop()
	sum.ServerCPUPct, sum.ToolCPUPct, sum.CPUPressurePct, sum.IOPressurePct = u.ServerCPUPct, u.ToolCPUPct, u.CPUPressurePct, u.IOPressurePct

	sum.UploadSecs = elapsed.Seconds()
	sum.ChunksSent, sum.ChunksOK, sum.BytesOK = sent.Load(), ok.Load(), okBytes.Load()
	sum.Completed = completed.Load()
	sum.Errors = errs.n.Load()
	if ctx.Err() != nil {
		sum.Errors++
		errs.sample = append(errs.sample, "interrupted")
	}
	sum.ErrorSample = errs.sample
	sum.ChunksPerSec = float64(sum.ChunksOK) / elapsed.Seconds()
	sum.KBPerSec = float64(sum.BytesOK) / 1000 / elapsed.Seconds()
	sum.MaxLagMs = benchkit.Ms(time.Duration(maxLag.Load()))

	acks := slices.Concat(lat...)
	sum.LatencyMs = quantiles(acks)
	// Per window of the upload, to tell a burst from a steady tail.
	slices.SortFunc(acks, func(a, b ack) int { return cmp.Compare(a.at, b.at) })
	for lo := 0; lo < len(acks); {
		w := acks[lo].at / latencyWindow
		hi := lo
		for hi < len(acks) && acks[hi].at/latencyWindow == w {
			hi++
		}
		sum.Windows = append(sum.Windows, window{StartS: (w * latencyWindow).Seconds(), Chunks: hi - lo, LatencyMs: quantiles(acks[lo:hi])})
		lo = hi
	}
	return start
}

// ack is one acknowledged chunk: when it was sent (since the upload
// started) and how long the acknowledgement took.
type ack struct{ at, d time.Duration }

// latencyWindow is the length of the windows of the per-window latencies.
const latencyWindow = 10 * time.Second

type window struct {
	StartS    float64            `json:"startSeconds"`
	Chunks    int                `json:"chunks"`
	LatencyMs benchkit.Latencies `json:"latencyMs"`
}

func quantiles(acks []ack) benchkit.Latencies {
	ds := make([]time.Duration, len(acks))
	for i, a := range acks {
		ds[i] = a.d
	}
	return benchkit.Quantiles(ds)
}

// summarizeMemory fills in the memory and load figures. The growth is the
// largest rise of the RSS over its lowest value before it: right after the
// setup the RSS still holds the garbage of 200 argon2id sign-ins (19 MiB
// each), which the Go runtime returns to the system only after its next
// collection, a few seconds into the upload.
func summarizeMemory(sum *summary, pid int, samples []benchkit.Sample) {
	sum.RSSMeasured = pid > 0 && len(samples) > 0 && samples[0].RSSMiB > 0
	low := -1.0
	for _, s := range samples {
		sum.Samples = append(sum.Samples, sample{T: s.T, RSSMiB: s.RSSMiB, Load1: s.Load1})
		if low < 0 || s.RSSMiB < low {
			low = s.RSSMiB
		}
		if s.RSSMiB-low > sum.RSSGrowthMiB || sum.RSSBaselineMiB == 0 {
			sum.RSSGrowthMiB, sum.RSSBaselineMiB = s.RSSMiB-low, low
		}
		sum.RSSPeakMiB = max(sum.RSSPeakMiB, s.RSSMiB)
	}
	sum.RSSAfterSetupMiB, sum.RSSEndMiB = samples[0].RSSMiB, samples[len(samples)-1].RSSMiB
	sum.LoadMean1, sum.LoadMax1 = benchkit.LoadStats(samples)
}

// --- verdict and report ---

func judge(sum *summary) {
	p99Budget := budgetP99
	if sum.Media == mediaBucket {
		p99Budget = budgetP99Bucket
	}
	sum.Checks = []check{
		{Name: "errors", Value: strconv.FormatInt(sum.Errors, 10), Budget: "0", Pass: sum.Errors == 0},
		{Name: "recordings completed", Value: strconv.FormatInt(sum.Completed, 10), Budget: strconv.Itoa(sum.Students),
			Pass: sum.Completed == int64(sum.Students)},
		{Name: "p99 chunk acknowledgement", Value: fmt.Sprintf("%.1f ms", sum.LatencyMs.P99), Budget: fmt.Sprintf("< %.0f ms", benchkit.Ms(p99Budget)),
			Pass: sum.ChunksOK > 0 && sum.LatencyMs.P99 < benchkit.Ms(p99Budget)},
	}
	if sum.RSSMeasured {
		sum.Checks = append(sum.Checks, check{Name: "server RSS growth", Value: fmt.Sprintf("%.1f MiB", sum.RSSGrowthMiB),
			Budget: "< 200 MB (190.7 MiB)", Pass: sum.RSSGrowthMiB*(1<<20) < budgetRSSGrowth})
	} else {
		// A budget that was not measured is not met.
		sum.Checks = append(sum.Checks, check{Name: "server RSS growth", Value: "not measured (give -pid with -url)",
			Budget: "< 200 MB", Pass: false})
	}
	sum.Pass = true
	for _, c := range sum.Checks {
		sum.Pass = sum.Pass && c.Pass
	}
}

func printSummary(w io.Writer, s *summary) {
	fmt.Fprintf(w, "\nupload-bench: %d recordings × %s, a %d-byte chunk every %s each, against %s (media store: %s)\n",
		s.Students, s.Duration, s.ChunkBytes, s.Interval, s.Target, s.Media)
	fmt.Fprintf(w, "  chunks       %d sent, %d acknowledged of %d planned; %d errors; %d/%d recordings completed\n",
		s.ChunksSent, s.ChunksOK, s.ChunksPlan, s.Errors, s.Completed, s.Students)
	for _, e := range s.ErrorSample {
		fmt.Fprintf(w, "               %s\n", e)
	}
	l := s.LatencyMs
	fmt.Fprintf(w, "  latency      p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, p99.9 %.1f ms, max %.1f ms (mean %.1f ms)\n",
		l.P50, l.P90, l.P99, l.P999, l.Max, l.Mean)
	if len(s.Windows) > 0 {
		p99s := make([]float64, len(s.Windows))
		worst := s.Windows[0]
		for i, win := range s.Windows {
			p99s[i] = win.LatencyMs.P99
			if win.LatencyMs.P99 > worst.LatencyMs.P99 {
				worst = win
			}
		}
		slices.Sort(p99s)
		fmt.Fprintf(w, "  per 10 s     p99 median %.1f ms, best %.1f ms, worst %.1f ms (from %.0f s)\n",
			p99s[len(p99s)/2], p99s[0], worst.LatencyMs.P99, worst.StartS)
	}
	fmt.Fprintf(w, "  throughput   %.1f chunks/s, %.0f kB/s over %.0f s (worst send lag %.0f ms)\n",
		s.ChunksPerSec, s.KBPerSec, s.UploadSecs, s.MaxLagMs)
	if s.RSSMeasured {
		fmt.Fprintf(w, "  server RSS   baseline %.1f MiB, peak %.1f MiB, growth %.1f MiB (fresh server %.1f MiB, after setup %.1f MiB, end %.1f MiB)\n",
			s.RSSBaselineMiB, s.RSSPeakMiB, s.RSSGrowthMiB, s.RSSFreshMiB, s.RSSAfterSetupMiB, s.RSSEndMiB)
	} else {
		fmt.Fprintf(w, "  server RSS   not measured\n")
	}
	fmt.Fprintf(w, "  CPU          server %.0f%%, load generator %.0f%% (of one core; %d cores)\n", s.ServerCPUPct, s.ToolCPUPct, s.CPUs)
	fmt.Fprintf(w, "  load average at start %.2f %.2f %.2f, during the upload mean %.2f max %.2f (1 min), at end %.2f %.2f %.2f\n",
		s.LoadStart[0], s.LoadStart[1], s.LoadStart[2], s.LoadMean1, s.LoadMax1, s.LoadEnd[0], s.LoadEnd[1], s.LoadEnd[2])
	if s.CPUPressurePct >= 0 {
		fmt.Fprintf(w, "  pressure     during the upload some task of the machine waited for a CPU %.0f%% of the time, for I/O %.0f%%\n",
			s.CPUPressurePct, s.IOPressurePct)
	}
	fmt.Fprintf(w, "  setup        %.0f s; data dir %.1f MiB at end\n", s.SetupSecs, s.DataDirMiB)
	for _, c := range s.Checks {
		mark := "ok  "
		if !c.Pass {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "  %s %-26s %s (budget %s)\n", mark, c.Name, c.Value, c.Budget)
	}
	if s.Pass {
		fmt.Fprintln(w, "PASS")
	} else {
		fmt.Fprintln(w, "FAIL")
	}
}
