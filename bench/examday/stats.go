package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/utpl/simulador/bench/benchkit"
)

// Endpoints, named by method and route. The tutor's ones are not student
// endpoints for the budgets.
const (
	epLogin     = "POST /api/auth/login"
	epMicrosoft = "POST /api/auth/microsoft"
	epSession   = "GET /api/session"
	epOverview  = "GET /api/exam/overview"
	epStart     = "POST /api/attempts"
	epNotes     = "PUT /api/attempts/:id/notes"
	epAdvance   = "POST /api/attempts/:id/advance"
	epTake      = "PUT /api/attempts/:id/recordings/:rid"
	epChunk     = "PUT /api/attempts/:id/recordings/:rid/chunks/:seq"
	epComplete  = "POST /api/attempts/:id/recordings/:rid/complete"
	epSelf      = "POST /api/attempts/:id/self-assessment"
	epAttempt   = "GET /api/attempts/:id"
	epGrading   = "GET /api/admin/grading"
	epReports   = "GET /api/admin/reports"
)

var tutorEndpoints = map[string]bool{epGrading: true, epReports: true}

// call is one HTTP request the students or tutors made.
type call struct {
	at         time.Duration // when it was sent, since the origin
	d          time.Duration
	status     int // 0: no response (network error, time-out)
	retryAfter bool
}

// recorder collects every request of the run.
type recorder struct {
	origin time.Time
	mu     sync.Mutex
	calls  map[string][]call
	errs   []string
	nerr   int
}

func newRecorder(origin time.Time) *recorder {
	return &recorder{origin: origin, calls: map[string][]call{}}
}

func (r *recorder) add(ep string, sent time.Time, d time.Duration, status int, retryAfter bool) {
	r.mu.Lock()
	r.calls[ep] = append(r.calls[ep], call{at: sent.Sub(r.origin), d: d, status: status, retryAfter: retryAfter})
	r.mu.Unlock()
}

// problem notes something that went wrong (the first 30 are kept).
func (r *recorder) problem(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	r.mu.Lock()
	r.nerr++
	keep := len(r.errs) < 30
	if keep {
		r.errs = append(r.errs, msg)
	}
	r.mu.Unlock()
	if keep {
		logf("problem: %s", msg)
	}
}

// endpointStats is one endpoint's line of the summary.
type endpointStats struct {
	Endpoint string             `json:"endpoint"`
	Count    int                `json:"count"`
	OK       int                `json:"ok"`
	Statuses map[string]int     `json:"statuses"` // "200": n, "429+RA": n (with Retry-After), "net": n
	Errors   int                `json:"errors"`   // neither 2xx nor a 429/503 with Retry-After
	Shed     int                `json:"shed"`     // 429/503 with Retry-After
	Latency  benchkit.Latencies `json:"latencyMs"`
	Student  bool               `json:"studentEndpoint"`
}

func statusKey(c call) string {
	switch {
	case c.status == 0:
		return "net"
	case c.retryAfter && (c.status == 429 || c.status == 503):
		return strconv.Itoa(c.status) + "+RA"
	}
	return strconv.Itoa(c.status)
}

func isShed(c call) bool { return c.retryAfter && (c.status == 429 || c.status == 503) }

func summarizeCalls(ep string, calls []call) endpointStats {
	s := endpointStats{Endpoint: ep, Count: len(calls), Statuses: map[string]int{}, Student: !tutorEndpoints[ep]}
	ds := make([]time.Duration, 0, len(calls))
	for _, c := range calls {
		s.Statuses[statusKey(c)]++
		switch {
		case c.status/100 == 2:
			s.OK++
		case isShed(c):
			s.Shed++
		default:
			s.Errors++
		}
		if c.status != 0 {
			ds = append(ds, c.d)
		}
	}
	s.Latency = benchkit.Quantiles(ds)
	return s
}

// summary is the result, printed and written as JSON.
type summary struct {
	Started   time.Time `json:"started"`
	Mode      string    `json:"mode"`
	Target    string    `json:"target"`
	URL       string    `json:"url"`
	Media     string    `json:"media"`
	SignIn    string    `json:"signIn"`
	Students  int       `json:"students"`
	Tutors    int       `json:"tutors"`
	Addresses int       `json:"addresses"`
	Window    string    `json:"signInWindow"`
	Blueprint string    `json:"blueprint"`
	Command   string    `json:"command"`
	Binary    string    `json:"binary"`
	GoVersion string    `json:"goVersion"`
	CPUs      int       `json:"cpus"`

	SetupSecs float64 `json:"setupSeconds"`
	RunSecs   float64 `json:"runSeconds"`

	Completed     int                `json:"studentsCompleted"`
	SignedIn      int                `json:"studentsSignedIn"`
	SignInMs      benchkit.Latencies `json:"signInMs"` // first try to signed in, retries and waits included
	WaveEndSecs   float64            `json:"signInWaveEndSeconds"`
	ChunkAfterMs  benchkit.Latencies `json:"chunkAfterWaveMs"` // chunks sent after the last sign-in
	ChunksAfter   int                `json:"chunksAfterWave"`
	Requests      int                `json:"requests"`
	Errors        int                `json:"errors"`
	Shed          int                `json:"shed"`
	Status500     int                `json:"status5xxWithoutRetryAfter"`
	ShedNoRetry   int                `json:"shedWithoutRetryAfter"`
	Problems      int                `json:"problems"`
	ProblemSample []string           `json:"problemSample,omitempty"`
	Endpoints     []endpointStats    `json:"endpoints"`
	// Flood is the flood phase's measurements (-flood), nil without it.
	Flood *floodStats `json:"flood,omitempty"`

	RSSMeasured    bool       `json:"rssMeasured"`
	RSSStartMiB    float64    `json:"rssStartMiB"`
	RSSPeakMiB     float64    `json:"rssPeakMiB"`
	RSSEndMiB      float64    `json:"rssEndMiB"`
	Usage          usage      `json:"usage"`
	LoadStart      [3]float64 `json:"loadAverageAtStart"`
	LoadEnd        [3]float64 `json:"loadAverageAtEnd"`
	LoadMean1      float64    `json:"loadAverage1mMean"`
	LoadMax1       float64    `json:"loadAverage1mMax"`
	ServerLogLines int        `json:"serverLogErrorLines"`
	ServerLogTail  []string   `json:"serverLogErrorSample,omitempty"`

	Checks  []check           `json:"checks"`
	Pass    bool              `json:"pass"`
	Samples []benchkit.Sample `json:"samples"`
}

type usage = benchkit.Usage

type check struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Budget string `json:"budget"`
	Pass   bool   `json:"pass"`
}

func (s *summary) fill(r *recorder, waveEnd time.Duration, signIns []time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ep := range slices.Sorted(maps.Keys(r.calls)) {
		es := summarizeCalls(ep, r.calls[ep])
		s.Endpoints = append(s.Endpoints, es)
		s.Requests += es.Count
		s.Errors += es.Errors
		s.Shed += es.Shed
		for _, c := range r.calls[ep] {
			if c.status >= 500 && !isShed(c) {
				s.Status500++
			}
			if (c.status == 429 || c.status == 503) && !c.retryAfter {
				s.ShedNoRetry++
			}
		}
	}
	slices.SortStableFunc(s.Endpoints, func(a, b endpointStats) int { return endpointOrder(a.Endpoint) - endpointOrder(b.Endpoint) })
	s.WaveEndSecs = waveEnd.Seconds()
	var after []time.Duration
	for _, c := range r.calls[epChunk] {
		if c.at >= waveEnd && c.status != 0 {
			after = append(after, c.d)
		}
	}
	s.ChunksAfter = len(after)
	s.ChunkAfterMs = benchkit.Quantiles(after)
	s.SignedIn = len(signIns)
	s.SignInMs = benchkit.Quantiles(signIns)
	s.Problems, s.ProblemSample = r.nerr, slices.Clone(r.errs)
}

var order = []string{epLogin, epMicrosoft, epSession, epOverview, epStart, epNotes, epAdvance, epTake, epChunk, epComplete, epSelf, epAttempt, epGrading, epReports}

func endpointOrder(ep string) int {
	if i := slices.Index(order, ep); i >= 0 {
		return i
	}
	return len(order)
}

// judge checks the budgets of the mode (docs/performance.md).
func (s *summary) judge(o options) {
	add := func(name, value, budget string, pass bool) {
		s.Checks = append(s.Checks, check{Name: name, Value: value, Budget: budget, Pass: pass})
	}
	add("students completed", fmt.Sprintf("%d of %d", s.Completed, s.Students), "all", s.Completed == s.Students)
	rss := func(limit float64) {
		if !s.RSSMeasured {
			add("server RSS peak", "not measured (-pids with -url)", fmt.Sprintf("< %.0f MiB", limit), false)
			return
		}
		add("server RSS peak", fmt.Sprintf("%.1f MiB", s.RSSPeakMiB), fmt.Sprintf("< %.0f MiB", limit), s.RSSPeakMiB < limit)
	}
	switch o.mode {
	case "ramp":
		add("errors (any response not 2xx)", strconv.Itoa(s.Errors+s.Shed), "0", s.Errors+s.Shed == 0)
		for _, e := range s.Endpoints {
			if e.Student {
				add("p99 "+e.Endpoint, fmt.Sprintf("%.1f ms", e.Latency.P99), "< 50 ms", e.Count > 0 && e.Latency.P99 < 50)
			}
		}
		rep := s.endpoint(epReports)
		add("p99 "+epReports, fmt.Sprintf("%.1f ms", rep.Latency.P99), "< 50 ms", rep.Count > 0 && rep.Latency.P99 < 50)
		rss(200)
	case "storm":
		add("5xx without Retry-After", strconv.Itoa(s.Status500), "0", s.Status500 == 0)
		add("429/503 without Retry-After", strconv.Itoa(s.ShedNoRetry), "0", s.ShedNoRetry == 0)
		add("other errors", strconv.Itoa(s.Errors-s.Status500-s.ShedNoRetry), "0", s.Errors-s.Status500-s.ShedNoRetry == 0)
		// With a flood the budgets are the flood variant's: the flooding
		// clients run on the same cores as the server and the students, so
		// the wave is slower; what must hold is that everyone gets in and
		// the owner's sign-ins all succeed (checked below).
		signInMs, chunkMs, variant := 10000.0, 100.0, ""
		if o.flood > 0 {
			signInMs, chunkMs, variant = 30000, 250, " (flood variant)"
		}
		add("sign-in p99 (retries included)", fmt.Sprintf("%.0f ms", s.SignInMs.P99), fmt.Sprintf("< %.0f ms%s", signInMs, variant),
			s.SignedIn == s.Students && s.SignInMs.P99 < signInMs)
		add("chunk p99 after the sign-in wave", fmt.Sprintf("%.1f ms (%d chunks)", s.ChunkAfterMs.P99, s.ChunksAfter), fmt.Sprintf("< %.0f ms%s", chunkMs, variant),
			s.ChunksAfter > 0 && s.ChunkAfterMs.P99 < chunkMs)
		rss(300)
	}
	if f := s.Flood; f != nil {
		for _, o := range []struct {
			name string
			st   ownerStats
		}{{"from a browser it signed in with before", f.KnownBrowser}, {"from a new browser", f.NewBrowser}} {
			add("owner's sign-ins during the flood, "+o.name, fmt.Sprintf("%d of %d succeeded, p50 %.0f ms, max %.0f ms", o.st.OK, o.st.Tries, o.st.Ms.P50, o.st.Ms.Max),
				"all", o.st.Tries > 0 && o.st.OK == o.st.Tries)
		}
	}
	s.Pass = true
	for _, c := range s.Checks {
		s.Pass = s.Pass && c.Pass
	}
}

func (s *summary) endpoint(ep string) endpointStats {
	for _, e := range s.Endpoints {
		if e.Endpoint == ep {
			return e
		}
	}
	return endpointStats{Endpoint: ep}
}

func (s *summary) print(w io.Writer, budgets bool) {
	fmt.Fprintf(w, "\nexamday-bench %s: %d students (%s sign-in, %d address(es), sign-ins within %s), %d tutors, target %s (%s), media %s\n",
		s.Mode, s.Students, s.SignIn, s.Addresses, s.Window, s.Tutors, s.Target, s.URL, s.Media)
	fmt.Fprintf(w, "  blueprint    %s\n", s.Blueprint)
	fmt.Fprintf(w, "  students     %d signed in, %d completed; sign-in (first try to signed in) p50 %.0f ms, p95 %.0f ms, p99 %.0f ms, max %.0f ms; wave ended at %.1f s\n",
		s.SignedIn, s.Completed, s.SignInMs.P50, s.SignInMs.P95, s.SignInMs.P99, s.SignInMs.Max, s.WaveEndSecs)
	if f := s.Flood; f != nil {
		fmt.Fprintf(w, "  flood        %d clients, %d sign-ins for made-up accounts (%v); the owner from its known browser: %d of %d ok, p50 %.0f ms, p95 %.0f ms, max %.0f ms; from a new browser: %d of %d ok, p50 %.0f ms, p95 %.0f ms, max %.0f ms\n",
			f.Clients, f.Requests, f.Statuses, f.KnownBrowser.OK, f.KnownBrowser.Tries, f.KnownBrowser.Ms.P50, f.KnownBrowser.Ms.P95, f.KnownBrowser.Ms.Max,
			f.NewBrowser.OK, f.NewBrowser.Tries, f.NewBrowser.Ms.P50, f.NewBrowser.Ms.P95, f.NewBrowser.Ms.Max)
		if r := f.KnownBrowser.Refusal + f.NewBrowser.Refusal; r != "" {
			fmt.Fprintf(w, "  flood        first refusal of the owner: %s\n", r)
		}
	}
	fmt.Fprintf(w, "  requests     %d; %d errors, %d shed with Retry-After, %d 5xx without Retry-After, %d 429/503 without Retry-After\n",
		s.Requests, s.Errors, s.Shed, s.Status500, s.ShedNoRetry)
	fmt.Fprintf(w, "  %-52s %6s %6s %6s %8s %8s %8s %8s  %s\n", "endpoint", "count", "errors", "shed", "p50 ms", "p95 ms", "p99 ms", "max ms", "statuses")
	for _, e := range s.Endpoints {
		var st []string
		for _, k := range slices.Sorted(maps.Keys(e.Statuses)) {
			st = append(st, fmt.Sprintf("%s×%d", k, e.Statuses[k]))
		}
		fmt.Fprintf(w, "  %-52s %6d %6d %6d %8.1f %8.1f %8.1f %8.1f  %s\n", e.Endpoint, e.Count, e.Errors, e.Shed,
			e.Latency.P50, e.Latency.P95, e.Latency.P99, e.Latency.Max, strings.Join(st, " "))
	}
	fmt.Fprintf(w, "  chunks after the sign-in wave: %d, p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms\n",
		s.ChunksAfter, s.ChunkAfterMs.P50, s.ChunkAfterMs.P95, s.ChunkAfterMs.P99, s.ChunkAfterMs.Max)
	for _, p := range s.ProblemSample {
		fmt.Fprintf(w, "               %s\n", p)
	}
	if s.RSSMeasured {
		fmt.Fprintf(w, "  server RSS   start %.1f MiB, peak %.1f MiB, end %.1f MiB\n", s.RSSStartMiB, s.RSSPeakMiB, s.RSSEndMiB)
	} else {
		fmt.Fprintf(w, "  server RSS   not measured\n")
	}
	fmt.Fprintf(w, "  CPU          server %.0f%%, load generator %.0f%% (of one core; %d cores)\n", s.Usage.ServerCPUPct, s.Usage.ToolCPUPct, s.CPUs)
	fmt.Fprintf(w, "  load average at start %.2f %.2f %.2f, during the run mean %.2f max %.2f (1 min), at end %.2f %.2f %.2f\n",
		s.LoadStart[0], s.LoadStart[1], s.LoadStart[2], s.LoadMean1, s.LoadMax1, s.LoadEnd[0], s.LoadEnd[1], s.LoadEnd[2])
	if s.Usage.CPUPressurePct >= 0 {
		fmt.Fprintf(w, "  pressure     during the run some task of the machine waited for a CPU %.0f%% of the time, for I/O %.0f%%\n",
			s.Usage.CPUPressurePct, s.Usage.IOPressurePct)
	}
	if s.ServerLogLines > 0 {
		fmt.Fprintf(w, "  server log   %d lines at level ERROR or WARN, e.g.:\n", s.ServerLogLines)
		for _, l := range s.ServerLogTail {
			fmt.Fprintf(w, "               %s\n", l)
		}
	}
	fmt.Fprintf(w, "  setup        %.0f s (not measured); run %.0f s\n", s.SetupSecs, s.RunSecs)
	if !budgets {
		return
	}
	for _, c := range s.Checks {
		mark := "ok  "
		if !c.Pass {
			mark = "FAIL"
		}
		fmt.Fprintf(w, "  %s %-60s %s (budget %s)\n", mark, c.Name, c.Value, c.Budget)
	}
	if s.Pass {
		fmt.Fprintln(w, "PASS")
	} else {
		var missed []string
		for _, c := range s.Checks {
			if !c.Pass {
				missed = append(missed, c.Name)
			}
		}
		fmt.Fprintf(w, "FAIL: budgets missed: %s\n", strings.Join(missed, "; "))
	}
}
