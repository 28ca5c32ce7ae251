package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/bench/benchkit"
)

// The per-request comparison (-mode compare): the same work on the
// simulator and on a PocketBase v0.36.8 peer (bench/pbpeer), each in a
// closed loop of -compare-workers users for -compare-for, alternated
// -rounds times (the machine is shared: alternation spreads its noise over
// both); and GET /api/session under wrk against a bare Echo handler.
//
//	authenticated read  GET /api/session                    GET /api/collections/users/records/:id
//	notes update        PUT /api/attempts/:id/notes          PATCH /api/collections/notes/records/:id
//	8 kB chunk          PUT …/recordings/:rid/chunks/:seq    POST /api/collections/chunks/records (multipart)
//
// The simulator does more per chunk (ownership, limits, SHA-256, and it
// syncs the chunk and its record to disk before acknowledging; PocketBase
// does not sync uploads): the comparison is of what each does for the
// same request from a browser.

const (
	budgetPeerRatio = 1.5 // simulator ÷ PocketBase throughput, per endpoint
	budgetWrkRatio  = 0.5 // GET /api/session ÷ a bare Echo handler, under wrk
	takeEvery       = 1000
	notesText       = "Hechos: el accionante fue separado de su cargo sin sumario administrativo. Problema jurídico: vulneración del debido proceso en la garantía de motivación y del derecho a la defensa. Normas: Constitución, arts. 76.7.a, 76.7.l y 173; Ley Orgánica del Servicio Público. Estrategia: acción de protección, medidas cautelares. Preguntas previsibles del tribunal: subsidiariedad, vía judicial ordinaria, reparación integral."
)

type compareSummary struct {
	Started   time.Time       `json:"started"`
	Command   string          `json:"command"`
	Workers   int             `json:"workers"`
	Each      string          `json:"eachMeasurement"`
	Rounds    int             `json:"rounds"`
	GoVersion string          `json:"goVersion"`
	CPUs      int             `json:"cpus"`
	Endpoints []compareResult `json:"endpoints"`
	Wrk       []wrkRun        `json:"wrk"`
	WrkRatio  float64         `json:"wrkRatioMedian"`
	Checks    []check         `json:"checks"`
	Pass      bool            `json:"pass"`
}

type compareResult struct {
	Name        string     `json:"name"`
	Simulator   []loopStat `json:"simulator"`
	PocketBase  []loopStat `json:"pocketbase"`
	Ratios      []float64  `json:"ratios"`
	RatioMedian float64    `json:"ratioMedian"`
}

type loopStat struct {
	Round     int                `json:"round"`
	PerSecond float64            `json:"perSecond"`
	OK        int                `json:"ok"`
	Errors    int                `json:"errors"`
	Latency   benchkit.Latencies `json:"latencyMs"`
	Load1     float64            `json:"load1"`
	CPUPct    float64            `json:"serverCpuPercent"`
	Sample    string             `json:"errorSample,omitempty"`
}

type wrkRun struct {
	Round     int     `json:"round"`
	Target    string  `json:"target"` // simulator or echo
	PerSecond float64 `json:"perSecond"`
	Output    string  `json:"output"`
	Load1     float64 `json:"load1"`
}

// op is one request of a closed loop; it reports whether it succeeded.
type op func(ctx context.Context, w int) (bool, string)

func runCompare(ctx context.Context, o options) (bool, error) {
	sum := &compareSummary{Started: time.Now().UTC(), Command: strings.Join(os.Args, " "), Workers: o.compareConc,
		Each: o.compareFor.String(), Rounds: o.rounds, GoVersion: runtime.Version(), CPUs: runtime.NumCPU()}
	if err := os.MkdirAll(o.tmp, 0o755); err != nil {
		return false, err
	}
	sim, err := startSimulatorForCompare(ctx, o)
	if err != nil {
		return false, fmt.Errorf("simulator: %w", err)
	}
	defer sim.stop()
	peer, err := startPeer(ctx, o)
	if err != nil {
		return false, fmt.Errorf("PocketBase peer: %w", err)
	}
	defer peer.stop()

	endpoints := []struct {
		name    string
		sim, pb op
	}{
		{name: "authenticated read (GET /api/session vs own user record)", sim: sim.read, pb: peer.read},
		{name: "notes update (PUT notes vs PATCH notes record)", sim: sim.notes, pb: peer.notes},
		{name: "8 kB chunk (PUT chunk vs POST chunks record)", sim: sim.chunk, pb: peer.chunk},
	}
	for _, ep := range endpoints {
		if o.only != "" && !strings.Contains(ep.name, o.only) {
			continue
		}
		res := compareResult{Name: ep.name}
		for round := 1; round <= o.rounds; round++ {
			run := func(who string, f op, pid int) loopStat {
				s := closedLoop(ctx, o.compareConc, o.compareFor, f, pid)
				s.Round = round
				logf("  %-58s %-10s round %d: %7.0f/s (p50 %.1f ms, p99 %.1f ms, %d errors, load %.2f)", ep.name, who, round, s.PerSecond,
					s.Latency.P50, s.Latency.P99, s.Errors, s.Load1)
				return s
			}
			var a, b loopStat
			if round%2 == 1 {
				a = run("simulator", ep.sim, sim.pid)
				b = run("pocketbase", ep.pb, peer.pid)
			} else {
				b = run("pocketbase", ep.pb, peer.pid)
				a = run("simulator", ep.sim, sim.pid)
			}
			res.Simulator, res.PocketBase = append(res.Simulator, a), append(res.PocketBase, b)
			if b.PerSecond > 0 {
				res.Ratios = append(res.Ratios, a.PerSecond/b.PerSecond)
			}
		}
		res.RatioMedian = median(res.Ratios)
		sum.Endpoints = append(sum.Endpoints, res)
	}

	wrk, err := exec.LookPath("wrk")
	if o.only != "" && !strings.Contains("wrk", o.only) {
		wrk = ""
	} else if err != nil {
		logf("wrk is not installed (apt-get install -y wrk): the bare-Echo comparison is skipped")
	} else {
		if err := compareWrk(ctx, o, wrk, sim, sum); err != nil {
			return false, err
		}
	}
	sum.judge(wrk != "", o.only == "" || strings.Contains("wrk", o.only))
	sum.print(os.Stdout)
	if err := benchkit.WriteJSON(o.out, sum); err != nil {
		return false, err
	}
	logf("summary written to %s", o.out)
	return sum.Pass || !o.budgets, nil
}

// closedLoop runs f on workers goroutines, each sending its next request as
// soon as the previous one is answered, for d.
func closedLoop(ctx context.Context, workers int, d time.Duration, f op, pid int) loopStat {
	var ok, bad atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	sample := ""
	usage := benchkit.StartUsage(pid)
	start := time.Now()
	end := start.Add(d)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			var mine []time.Duration
			for time.Now().Before(end) && ctx.Err() == nil {
				t := time.Now()
				good, msg := f(ctx, w)
				mine = append(mine, time.Since(t))
				if good {
					ok.Add(1)
				} else {
					bad.Add(1)
					mu.Lock()
					if sample == "" {
						sample = msg
					}
					mu.Unlock()
				}
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	u := usage.Stop()
	return loopStat{PerSecond: float64(ok.Load()) / secs, OK: int(ok.Load()), Errors: int(bad.Load()), Latency: benchkit.Quantiles(lat),
		Load1: benchkit.LoadAvg()[0], CPUPct: u.ServerCPUPct, Sample: sample}
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// --- the simulator ---

type simCompare struct {
	base    string
	pid     int
	stop    func()
	workers []*simWorker
}

type simWorker struct {
	client    *http.Client
	cookie    string
	attemptID string
	rid       string
	seq       int
	take      int
	buf       []byte
	rng       *rand.ChaCha8
	i         int
}

func startSimulatorForCompare(ctx context.Context, o options) (*simCompare, error) {
	dir, err := os.MkdirTemp(o.tmp, "examday-compare-")
	if err != nil {
		return nil, err
	}
	srv, err := benchkit.StartServer(ctx, benchkit.ServerOptions{Bin: o.bin, DataDir: dir, LogLevel: o.logLevel,
		Env: append([]string{"ALLOW_SHORT_TIMINGS=true", "MAX_TAKES_PER_PHASE=50", "MAX_ATTEMPTS_PER_DAY=1000"}, strings.Fields(o.env)...)})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s := &simCompare{base: srv.URL, pid: srv.PID(), stop: func() { srv.Stop(); os.RemoveAll(dir) }}
	oc := o
	oc.students, oc.tutors, oc.addresses, oc.signin = o.compareConc, 1, o.compareConc, "password"
	oc.blueprint.presentation = 15 * time.Minute // the longest: no new take late during the measurements
	fx := newFixture(oc, "compare")
	if err := makeAccounts(ctx, oc, fx, []string{"DATA_DIR=" + dir}); err != nil {
		s.stop()
		return nil, err
	}
	if err := setupByAPI(ctx, oc, fx, s.base); err != nil {
		s.stop()
		return nil, err
	}
	for i, st := range fx.students {
		w := &simWorker{client: benchkit.NewClient(o.timeout), buf: make([]byte, o.chunkBytes), rng: rand.NewChaCha8([32]byte{9, byte(i)}), i: i}
		res, err := benchkit.DoJSON(ctx, w.client, http.MethodPost, s.base+"/api/auth/login", "", map[string]string{"email": st.email, "password": password}, nil)
		if err != nil || res.Status != http.StatusOK {
			s.stop()
			return nil, fmt.Errorf("sign in %s: %v %d %s", st.email, err, res.Status, res.Body)
		}
		w.cookie = res.Cookie(benchkit.SessionCookie)
		res, err = benchkit.DoJSON(ctx, w.client, http.MethodPost, s.base+"/api/attempts", w.cookie, map[string]string{"mode": "entrenamiento"}, nil)
		var a attemptDTO
		if err != nil || res.Status != http.StatusCreated || json.Unmarshal(res.Body, &a) != nil {
			s.stop()
			return nil, fmt.Errorf("start attempt: %v %d %s", err, res.Status, res.Body)
		}
		w.attemptID = a.ID
		res, err = benchkit.DoJSON(ctx, w.client, http.MethodPost, s.base+"/api/attempts/"+a.ID+"/advance", w.cookie, map[string]int{"from": 0}, nil)
		if err != nil || res.Status != http.StatusOK {
			s.stop()
			return nil, fmt.Errorf("advance: %v %d %s", err, res.Status, res.Body)
		}
		if err := w.newTake(ctx, s.base); err != nil {
			s.stop()
			return nil, err
		}
		s.workers = append(s.workers, w)
	}
	logf("simulator ready: %d students signed in, each with an attempt in its presentation", len(s.workers))
	return s, nil
}

func (w *simWorker) newTake(ctx context.Context, base string) error {
	w.take++
	w.rid = fmt.Sprintf("compare-%02d-%04d-%s", w.i, w.take, strconv.FormatInt(time.Now().UnixNano(), 36))
	w.seq = 0
	res, err := benchkit.DoJSON(ctx, w.client, http.MethodPut, base+"/api/attempts/"+w.attemptID+"/recordings/"+w.rid, w.cookie,
		map[string]any{"phase": 1, "mimeType": mimeType}, nil)
	if err != nil || res.Status != http.StatusOK {
		return fmt.Errorf("register take: %v %d %s", err, res.Status, res.Body)
	}
	return nil
}

func answer(res benchkit.Response, err error, want int) (bool, string) {
	if err != nil {
		return false, err.Error()
	}
	if res.Status != want {
		return false, fmt.Sprintf("%d %.200s", res.Status, res.Body)
	}
	return true, ""
}

func (s *simCompare) read(ctx context.Context, i int) (bool, string) {
	w := s.workers[i]
	res, err := benchkit.Do(ctx, w.client, http.MethodGet, s.base+"/api/session", w.cookie, "", nil, nil)
	return answer(res, err, http.StatusOK)
}

func (s *simCompare) notes(ctx context.Context, i int) (bool, string) {
	w := s.workers[i]
	res, err := benchkit.DoJSON(ctx, w.client, http.MethodPut, s.base+"/api/attempts/"+w.attemptID+"/notes", w.cookie, map[string]string{"notes": notesText}, nil)
	return answer(res, err, http.StatusNoContent)
}

func (s *simCompare) chunk(ctx context.Context, i int) (bool, string) {
	w := s.workers[i]
	if w.seq >= takeEvery {
		if err := w.newTake(ctx, s.base); err != nil {
			return false, err.Error()
		}
	}
	_, _ = w.rng.Read(w.buf)
	sum := sha256.Sum256(w.buf)
	res, err := benchkit.Do(ctx, w.client, http.MethodPut, fmt.Sprintf("%s/api/attempts/%s/recordings/%s/chunks/%d", s.base, w.attemptID, w.rid, w.seq),
		w.cookie, "application/octet-stream", w.buf, map[string]string{"X-Chunk-SHA256": hex.EncodeToString(sum[:])})
	w.seq++
	return answer(res, err, http.StatusOK)
}

// --- the PocketBase peer ---

type peerCompare struct {
	base    string
	pid     int
	cmd     *exec.Cmd
	dir     string
	done    chan struct{}
	workers []*peerWorker
}

type peerWorker struct {
	client  *http.Client
	token   string
	userID  string
	notesID string
	rid     string
	seq     int
	take    int
	buf     []byte
	rng     *rand.ChaCha8
	i       int
}

func startPeer(ctx context.Context, o options) (*peerCompare, error) {
	dir, err := os.MkdirTemp(o.tmp, "examday-pbpeer-")
	if err != nil {
		return nil, err
	}
	addr, err := benchkit.FreeAddr()
	if err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(dir, "pbpeer.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(o.peerBin, "serve", "--http", addr, "--dir", filepath.Join(dir, "pb_data"))
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		logFile.Close()
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start %s (make bench-examday builds it from bench/pbpeer): %w", o.peerBin, err)
	}
	p := &peerCompare{base: "http://" + addr, pid: cmd.Process.Pid, cmd: cmd, dir: dir, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); logFile.Close(); close(p.done) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		res, err := http.Get(p.base + "/api/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-p.done:
			return nil, fmt.Errorf("pbpeer exited at start:\n%s", benchkit.Tail(filepath.Join(dir, "pbpeer.log"), 20))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			p.stop()
			return nil, errors.New("pbpeer did not answer /api/health in 30 s")
		}
	}
	for i := range o.compareConc {
		w := &peerWorker{client: benchkit.NewClient(o.timeout), buf: make([]byte, o.chunkBytes), rng: rand.NewChaCha8([32]byte{10, byte(i)}), i: i}
		email := fmt.Sprintf("peer%02d@utpl.edu.ec", i)
		res, err := benchkit.DoJSON(ctx, w.client, http.MethodPost, p.base+"/api/collections/users/records", "",
			map[string]string{"email": email, "password": password, "passwordConfirm": password, "name": "Estudiante"}, nil)
		if err != nil || res.Status != http.StatusOK {
			p.stop()
			return nil, fmt.Errorf("create user: %v %d %s", err, res.Status, res.Body)
		}
		res, err = benchkit.DoJSON(ctx, w.client, http.MethodPost, p.base+"/api/collections/users/auth-with-password", "",
			map[string]string{"identity": email, "password": password}, nil)
		var auth struct {
			Token  string `json:"token"`
			Record struct {
				ID string `json:"id"`
			} `json:"record"`
		}
		if err != nil || res.Status != http.StatusOK || json.Unmarshal(res.Body, &auth) != nil {
			p.stop()
			return nil, fmt.Errorf("sign in: %v %d %s", err, res.Status, res.Body)
		}
		w.token, w.userID = auth.Token, auth.Record.ID
		res, err = p.do(ctx, w, http.MethodPost, "/api/collections/notes/records", "application/json",
			mustJSON(map[string]string{"owner": w.userID, "notes": ""}))
		var rec struct {
			ID string `json:"id"`
		}
		if err != nil || res.Status != http.StatusOK || json.Unmarshal(res.Body, &rec) != nil {
			p.stop()
			return nil, fmt.Errorf("create notes: %v %d %s", err, res.Status, res.Body)
		}
		w.notesID = rec.ID
		w.newTake()
		p.workers = append(p.workers, w)
	}
	logf("PocketBase peer pid %d at %s ready: %d users signed in", p.pid, p.base, len(p.workers))
	return p, nil
}

func (p *peerCompare) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	os.RemoveAll(p.dir)
}

func (w *peerWorker) newTake() {
	w.take++
	w.rid = fmt.Sprintf("compare-%02d-%04d-%s", w.i, w.take, strconv.FormatInt(time.Now().UnixNano(), 36))
	w.seq = 0
}

func (p *peerCompare) do(ctx context.Context, w *peerWorker, method, path, contentType string, body []byte) (benchkit.Response, error) {
	return benchkit.Do(ctx, w.client, method, p.base+path, "", contentType, body, map[string]string{"Authorization": w.token})
}

func (p *peerCompare) read(ctx context.Context, i int) (bool, string) {
	w := p.workers[i]
	res, err := p.do(ctx, w, http.MethodGet, "/api/collections/users/records/"+w.userID, "", nil)
	return answer(res, err, http.StatusOK)
}

func (p *peerCompare) notes(ctx context.Context, i int) (bool, string) {
	w := p.workers[i]
	res, err := p.do(ctx, w, http.MethodPatch, "/api/collections/notes/records/"+w.notesID, "application/json", mustJSON(map[string]string{"notes": notesText}))
	return answer(res, err, http.StatusOK)
}

func (p *peerCompare) chunk(ctx context.Context, i int) (bool, string) {
	w := p.workers[i]
	if w.seq >= takeEvery {
		w.newTake()
	}
	_, _ = w.rng.Read(w.buf)
	sum := sha256.Sum256(w.buf)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	_ = mw.WriteField("owner", w.userID)
	_ = mw.WriteField("recording", w.rid)
	_ = mw.WriteField("seq", strconv.Itoa(w.seq))
	_ = mw.WriteField("sha256", hex.EncodeToString(sum[:]))
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="file"; filename="chunk.webm"`)
	h.Set("Content-Type", "audio/webm")
	fw, _ := mw.CreatePart(h)
	_, _ = fw.Write(w.buf)
	_ = mw.Close()
	res, err := p.do(ctx, w, http.MethodPost, "/api/collections/chunks/records", mw.FormDataContentType(), body.Bytes())
	w.seq++
	return answer(res, err, http.StatusOK)
}

// --- wrk against a bare Echo handler ---

var wrkRate = regexp.MustCompile(`Requests/sec:\s+([0-9.]+)`)

func compareWrk(ctx context.Context, o options, wrk string, sim *simCompare, sum *compareSummary) error {
	addr, err := benchkit.FreeAddr()
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	echoCmd := exec.Command(self, "-bare-echo", addr)
	echoCmd.Stderr = os.Stderr
	if err := echoCmd.Start(); err != nil {
		return err
	}
	defer func() { _ = echoCmd.Process.Kill(); _ = echoCmd.Wait() }()
	for i := 0; ; i++ {
		if res, err := http.Get("http://" + addr + "/"); err == nil {
			res.Body.Close()
			break
		}
		if i > 100 {
			return errors.New("the bare Echo server did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	run := func(round int, target, url string, headers ...string) (wrkRun, error) {
		args := []string{"-t2", fmt.Sprintf("-c%d", o.wrkConns), fmt.Sprintf("-d%ds", int(o.wrkFor.Seconds())), "--latency"}
		for _, h := range headers {
			args = append(args, "-H", h)
		}
		out, err := exec.CommandContext(ctx, wrk, append(args, url)...).CombinedOutput()
		if err != nil {
			return wrkRun{}, fmt.Errorf("wrk: %w: %s", err, out)
		}
		m := wrkRate.FindSubmatch(out)
		if m == nil {
			return wrkRun{}, fmt.Errorf("wrk printed no rate: %s", out)
		}
		rate, _ := strconv.ParseFloat(string(m[1]), 64)
		r := wrkRun{Round: round, Target: target, PerSecond: rate, Output: string(out), Load1: benchkit.LoadAvg()[0]}
		logf("  wrk -t2 -c%d %-10s round %d: %8.0f req/s (load %.2f)", o.wrkConns, target, round, rate, r.Load1)
		return r, nil
	}
	w0 := sim.workers[0]
	var ratios []float64
	for round := 1; round <= 2; round++ {
		var simRun, echoRun wrkRun
		var err error
		order := []string{"simulator", "echo"}
		if round%2 == 0 {
			order = []string{"echo", "simulator"}
		}
		for _, t := range order {
			if t == "simulator" {
				simRun, err = run(round, t, sim.base+"/api/session", "Cookie: "+benchkit.SessionCookie+"="+w0.cookie, "Sec-Fetch-Site: same-origin")
			} else {
				echoRun, err = run(round, t, "http://"+addr+"/")
			}
			if err != nil {
				return err
			}
		}
		sum.Wrk = append(sum.Wrk, simRun, echoRun)
		if echoRun.PerSecond > 0 {
			ratios = append(ratios, simRun.PerSecond/echoRun.PerSecond)
		}
	}
	sum.WrkRatio = median(ratios)
	return nil
}

// serveBareEcho is the reference of the wrk comparison: Echo v4, the
// server's framework, answering a constant string, nothing else.
func serveBareEcho(addr string) error {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.GET("/", func(c echo.Context) error { return c.String(http.StatusOK, "Hello, World!") })
	return e.Start(addr)
}

// --- verdict ---

func (s *compareSummary) judge(withWrk, wantWrk bool) {
	for _, e := range s.Endpoints {
		s.Checks = append(s.Checks, check{Name: "simulator ÷ PocketBase, " + e.Name, Value: fmt.Sprintf("%.2f× (rounds %s)", e.RatioMedian, ratios(e.Ratios)),
			Budget: fmt.Sprintf("≥ %.1f×", budgetPeerRatio), Pass: e.RatioMedian >= budgetPeerRatio})
	}
	if withWrk {
		s.Checks = append(s.Checks, check{Name: "GET /api/session ÷ bare Echo under wrk", Value: fmt.Sprintf("%.2f", s.WrkRatio),
			Budget: fmt.Sprintf("≥ %.2f", budgetWrkRatio), Pass: s.WrkRatio >= budgetWrkRatio})
	} else if wantWrk {
		s.Checks = append(s.Checks, check{Name: "GET /api/session ÷ bare Echo under wrk", Value: "not measured (wrk missing)", Budget: "≥ 0.50"})
	}
	s.Pass = true
	for _, c := range s.Checks {
		s.Pass = s.Pass && c.Pass
	}
}

func ratios(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf("%.2f", x)
	}
	return strings.Join(parts, ", ")
}

func (s *compareSummary) print(w io.Writer) {
	fmt.Fprintf(w, "\nexamday-bench compare: closed loops of %d workers, %s each, %d alternated rounds\n", s.Workers, s.Each, s.Rounds)
	for _, e := range s.Endpoints {
		fmt.Fprintf(w, "  %s\n", e.Name)
		for i := range e.Simulator {
			a, b := e.Simulator[i], e.PocketBase[i]
			fmt.Fprintf(w, "    round %d  simulator %7.0f/s (p50 %5.1f ms, p99 %6.1f ms, %d errors, CPU %3.0f%%, load %.2f)   PocketBase %7.0f/s (p50 %5.1f ms, p99 %6.1f ms, %d errors, CPU %3.0f%%, load %.2f)\n",
				a.Round, a.PerSecond, a.Latency.P50, a.Latency.P99, a.Errors, a.CPUPct, a.Load1, b.PerSecond, b.Latency.P50, b.Latency.P99, b.Errors, b.CPUPct, b.Load1)
			if a.Sample != "" {
				fmt.Fprintf(w, "      simulator error: %s\n", a.Sample)
			}
			if b.Sample != "" {
				fmt.Fprintf(w, "      PocketBase error: %s\n", b.Sample)
			}
		}
	}
	for _, r := range s.Wrk {
		fmt.Fprintf(w, "  wrk %-9s round %d: %8.0f req/s (load %.2f)\n", r.Target, r.Round, r.PerSecond, r.Load1)
	}
	for _, c := range s.Checks {
		mark := "ok  "
		if !c.Pass {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "  %s %-70s %s (budget %s)\n", mark, c.Name, c.Value, c.Budget)
	}
	if s.Pass {
		fmt.Fprintln(w, "PASS")
		return
	}
	var missed []string
	for _, c := range s.Checks {
		if !c.Pass {
			missed = append(missed, c.Name)
		}
	}
	fmt.Fprintf(w, "FAIL: budgets missed: %s\n", strings.Join(missed, "; "))
}
