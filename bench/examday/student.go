package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/utpl/simulador/bench/benchkit"
)

const (
	password    = "examday-bench-1234"
	mimeType    = "audio/webm;codecs=opus"
	nonceCookie = "__Secure-simulador_ms_nonce"
	// maxTries bounds the retries of one request (the browser would go on).
	maxTries = 40
)

// student is one simulated browser.
type student struct {
	i      int
	email  string
	name   string
	oid    string // microsoft: the account's object id
	addr   string // X-Forwarded-For
	client *http.Client
	rng    *rand.Rand
	bytes  *rand.ChaCha8 // the chunks' content

	cookie string
	// microsoft: obtained during the setup (see prepareMicrosoft)
	nonce, idToken string

	attemptID string
	completed bool
}

// tutor polls the grading queue and the report of its group.
type tutor struct {
	email  string
	client *http.Client
	cookie string
	addr   string
}

// runner runs the scenario against one deployment.
type runner struct {
	o    options
	base string
	rec  *recorder

	mu       sync.Mutex
	signIns  []time.Duration
	lastIn   time.Time
	done     atomic.Int64
	finished atomic.Int64
}

// send makes one request and records it.
func (r *runner) send(ctx context.Context, c *http.Client, cookie, addr, ep, method, path, contentType string, body []byte, header map[string]string) (benchkit.Response, error) {
	h := map[string]string{"X-Forwarded-For": addr}
	for k, v := range header {
		h[k] = v
	}
	t := time.Now()
	res, err := benchkit.Do(ctx, c, method, r.base+path, cookie, contentType, body, h)
	d := time.Since(t)
	status := res.Status
	if err != nil {
		status = 0
	}
	r.rec.add(ep, t, d, status, res.Header.Get("Retry-After") != "")
	return res, err
}

// statusError is a final answer that is not a success.
type statusError struct {
	ep     string
	status int
	body   string
}

func (e *statusError) Error() string { return fmt.Sprintf("%s: %d %s", e.ep, e.status, e.body) }

// do sends a request until it has a final answer, as the browser's API
// client and upload queue do: network errors, 408, 429, 5xx are retried,
// after Retry-After (with up to 50 % jitter) when the server gives one,
// else after an exponential backoff (1 s, 2 s, … 30 s, ±20 %).
func (r *runner) do(ctx context.Context, c *http.Client, rng *rand.Rand, cookie, addr, ep, method, path, contentType string, body []byte, header map[string]string) (benchkit.Response, error) {
	for try := 1; ; try++ {
		res, err := r.send(ctx, c, cookie, addr, ep, method, path, contentType, body, header)
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		retry := err != nil || res.Status == http.StatusRequestTimeout || res.Status == http.StatusTooManyRequests || res.Status >= 500
		if !retry {
			if res.Status/100 == 2 {
				return res, nil
			}
			return res, &statusError{ep, res.Status, string(res.Body)}
		}
		if try >= maxTries {
			if err != nil {
				return res, fmt.Errorf("%s: gave up after %d tries: %w", ep, try, err)
			}
			return res, fmt.Errorf("%s: gave up after %d tries: %w", ep, try, &statusError{ep, res.Status, string(res.Body)})
		}
		wait := backoff(try, rng)
		if err == nil {
			if s, perr := strconv.Atoi(res.Header.Get("Retry-After")); perr == nil && s >= 0 {
				base := time.Duration(s) * time.Second
				wait = base + time.Duration(rng.Float64()*0.5*float64(base)) + time.Duration(rng.IntN(500))*time.Millisecond
			}
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return res, ctx.Err()
		}
	}
}

func backoff(try int, rng *rand.Rand) time.Duration {
	d := min(30*time.Second, time.Second<<min(try-1, 5))
	return time.Duration(float64(d) * (0.8 + 0.4*rng.Float64()))
}

func (r *runner) studentDo(ctx context.Context, st *student, ep, method, path string, v any) (benchkit.Response, error) {
	var body []byte
	ct := ""
	if v != nil {
		b, err := json.Marshal(v)
		if err != nil {
			return benchkit.Response{}, err
		}
		body, ct = b, "application/json"
	}
	return r.do(ctx, st.client, st.rng, st.cookie, st.addr, ep, method, path, ct, body, nil)
}

// attemptDTO is what the scenario reads of an attempt.
type attemptDTO struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Current int    `json:"current"`
	Phases  []struct {
		Kind     string `json:"kind"`
		LimitSec int    `json:"limitSec"`
		Recorded bool   `json:"recorded"`
	} `json:"phases"`
	Rubric struct {
		Criteria []struct {
			ID string `json:"id"`
		} `json:"criteria"`
	} `json:"rubric"`
}

// signIn signs the student in, retrying as a browser would after a 429 or
// 503 with Retry-After.
func (r *runner) signIn(ctx context.Context, st *student) error {
	var res benchkit.Response
	var err error
	if r.o.signin == "microsoft" {
		res, err = r.do(ctx, st.client, st.rng, "", st.addr, epMicrosoft, http.MethodPost, "/api/auth/microsoft", "application/json",
			mustJSON(map[string]string{"idToken": st.idToken}), map[string]string{"Cookie": nonceCookie + "=" + st.nonce})
	} else {
		res, err = r.do(ctx, st.client, st.rng, "", st.addr, epLogin, http.MethodPost, "/api/auth/login", "application/json",
			mustJSON(map[string]string{"email": st.email, "password": password}), nil)
	}
	if err != nil {
		return err
	}
	if st.cookie = res.Cookie(benchkit.SessionCookie); st.cookie == "" {
		return errors.New("no session cookie")
	}
	return nil
}

// rehearse is one student's whole simulacro, starting at startAt.
func (r *runner) rehearse(ctx context.Context, st *student, startAt time.Time) {
	defer r.done.Add(1)
	if !sleepUntil(ctx, startAt) {
		return
	}
	t0 := time.Now()
	if err := r.signIn(ctx, st); err != nil {
		r.rec.problem("%s sign-in: %v", st.email, err)
		return
	}
	r.mu.Lock()
	r.signIns = append(r.signIns, time.Since(t0))
	r.lastIn = time.Now()
	r.mu.Unlock()

	fail := func(what string, err error) { r.rec.problem("%s %s: %v", st.email, what, err) }
	if _, err := r.studentDo(ctx, st, epSession, http.MethodGet, "/api/session", nil); err != nil {
		fail("session", err)
		return
	}
	if _, err := r.studentDo(ctx, st, epOverview, http.MethodGet, "/api/exam/overview", nil); err != nil {
		fail("overview", err)
		return
	}
	res, err := r.studentDo(ctx, st, epStart, http.MethodPost, "/api/attempts", map[string]string{"mode": "simulacro"})
	if err != nil {
		fail("start", err)
		return
	}
	var a attemptDTO
	if err := json.Unmarshal(res.Body, &a); err != nil || a.ID == "" || len(a.Phases) == 0 {
		fail("start", fmt.Errorf("unreadable attempt: %v %.200s", err, res.Body))
		return
	}
	st.attemptID = a.ID
	base := "/api/attempts/" + a.ID

	up := newUploadQueue(r, st)
	go up.run(ctx)
	defer up.close()

	takes := 0
	for idx := a.Current; idx < len(a.Phases); idx++ {
		ph := a.Phases[idx]
		if ph.Kind == "self_assessment" {
			break
		}
		start := time.Now()
		limit := time.Duration(ph.LimitSec) * time.Second
		rid := ""
		chunks := 0
		switch {
		case ph.Recorded:
			takes++
			rid = fmt.Sprintf("examday-%05d-%d-%s", st.i, idx, strconv.FormatInt(time.Now().UnixNano(), 36))
			up.push(work{kind: workCreate, rid: rid, phase: idx})
			chunks = max(1, int(limit/r.o.chunkEvery))
			for k := 1; k <= chunks; k++ {
				if !sleepUntil(ctx, start.Add(time.Duration(k)*r.o.chunkEvery)) {
					return
				}
				up.push(work{kind: workChunk, rid: rid, seq: k - 1})
			}
		case ph.Kind == "preparation":
			for k := 1; time.Duration(k)*r.o.notesEvery <= limit; k++ {
				if !sleepUntil(ctx, start.Add(time.Duration(k)*r.o.notesEvery)) {
					return
				}
				notes := fmt.Sprintf("Notas de %s, minuto %d: hechos, problema jurídico, normas aplicables.", st.name, k)
				if _, err := r.studentDo(ctx, st, epNotes, http.MethodPut, base+"/notes", map[string]string{"notes": notes}); err != nil {
					fail("notes", err)
				}
			}
		}
		if !sleepUntil(ctx, start.Add(limit)) {
			return
		}
		if _, err := r.studentDo(ctx, st, epAdvance, http.MethodPost, base+"/advance", map[string]int{"from": idx}); err != nil {
			fail(fmt.Sprintf("advance from %d", idx), err)
			return
		}
		if ph.Recorded {
			up.push(work{kind: workComplete, rid: rid, seq: chunks})
		}
	}
	levels := map[string]int{}
	for _, c := range a.Rubric.Criteria {
		levels[c.ID] = 3
	}
	if _, err := r.studentDo(ctx, st, epSelf, http.MethodPost, base+"/self-assessment", map[string]any{"levels": levels}); err != nil {
		fail("self-assessment", err)
		return
	}
	up.close()
	<-up.finished
	if _, err := r.studentDo(ctx, st, epAttempt, http.MethodGet, base, nil); err != nil {
		fail("result", err)
		return
	}
	if up.completed.Load() == int64(takes) && up.failed.Load() == 0 {
		st.completed = true
		r.finished.Add(1)
	} else {
		r.rec.problem("%s: %d of %d takes completed, %d upload failures", st.email, up.completed.Load(), takes, up.failed.Load())
	}
}

// --- the upload queue ---

type workKind int

const (
	workCreate workKind = iota
	workChunk
	workComplete
)

type work struct {
	kind  workKind
	rid   string
	phase int
	seq   int // chunk number; for complete, the number of chunks
}

// uploadQueue sends one student's recordings one request at a time, in
// order, as the browser's UploadQueue does.
type uploadQueue struct {
	r         *runner
	st        *student
	in        chan work
	closeOnce sync.Once
	finished  chan struct{}
	completed atomic.Int64
	failed    atomic.Int64
	buf       []byte
}

func newUploadQueue(r *runner, st *student) *uploadQueue {
	return &uploadQueue{r: r, st: st, in: make(chan work, 256), finished: make(chan struct{}), buf: make([]byte, r.o.chunkBytes)}
}

func (q *uploadQueue) push(w work) { q.in <- w }
func (q *uploadQueue) close()      { q.closeOnce.Do(func() { close(q.in) }) }

func (q *uploadQueue) run(ctx context.Context) {
	defer close(q.finished)
	st := q.st
	base := "/api/attempts/" + st.attemptID + "/recordings/"
	for w := range q.in {
		if ctx.Err() != nil {
			q.failed.Add(1)
			continue
		}
		switch w.kind {
		case workCreate:
			if _, err := q.r.do(ctx, st.client, st.rng, st.cookie, st.addr, epTake, http.MethodPut, base+w.rid, "application/json",
				mustJSON(map[string]any{"phase": w.phase, "mimeType": mimeType}), nil); err != nil {
				q.failed.Add(1)
				q.r.rec.problem("%s take %s: %v", st.email, w.rid, err)
			}
		case workChunk:
			_, _ = st.bytes.Read(q.buf)
			sum := sha256.Sum256(q.buf)
			if _, err := q.r.do(ctx, st.client, st.rng, st.cookie, st.addr, epChunk, http.MethodPut, base+w.rid+"/chunks/"+strconv.Itoa(w.seq),
				"application/octet-stream", q.buf, map[string]string{"X-Chunk-SHA256": hex.EncodeToString(sum[:])}); err != nil {
				q.failed.Add(1)
				q.r.rec.problem("%s chunk %s/%d: %v", st.email, w.rid, w.seq, err)
			}
		case workComplete:
			res, err := q.r.do(ctx, st.client, st.rng, st.cookie, st.addr, epComplete, http.MethodPost, base+w.rid+"/complete", "application/json",
				mustJSON(map[string]any{"chunks": w.seq, "durationMs": (time.Duration(w.seq) * q.r.o.chunkEvery).Milliseconds()}), nil)
			var rec struct {
				Complete bool  `json:"complete"`
				Chunks   int   `json:"chunks"`
				Bytes    int64 `json:"bytes"`
			}
			switch {
			case err != nil:
				q.failed.Add(1)
				q.r.rec.problem("%s complete %s: %v", st.email, w.rid, err)
			case json.Unmarshal(res.Body, &rec) != nil || !rec.Complete || rec.Chunks != w.seq || rec.Bytes != int64(w.seq*q.r.o.chunkBytes):
				q.failed.Add(1)
				q.r.rec.problem("%s complete %s: got %.200s, want %d chunks of %d bytes", st.email, w.rid, res.Body, w.seq, q.r.o.chunkBytes)
			default:
				q.completed.Add(1)
			}
		}
	}
}

// --- tutors ---

// poll makes a tutor look at the grading queue and the report every
// pollEvery until stop is closed.
func (r *runner) poll(ctx context.Context, t *tutor, offset time.Duration, stop <-chan struct{}, rng *rand.Rand) {
	select {
	case <-time.After(offset):
	case <-stop:
		return
	case <-ctx.Done():
		return
	}
	tick := time.NewTicker(r.o.pollEvery)
	defer tick.Stop()
	for {
		for _, p := range []struct{ ep, path string }{{epGrading, "/api/admin/grading"}, {epReports, "/api/admin/reports"}} {
			if _, err := r.do(ctx, t.client, rng, t.cookie, t.addr, p.ep, http.MethodGet, p.path, "", nil, nil); err != nil && ctx.Err() == nil {
				r.rec.problem("tutor %s %s: %v", t.email, p.path, err)
			}
		}
		select {
		case <-tick.C:
		case <-stop:
			return
		case <-ctx.Done():
			return
		}
	}
}

func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	select {
	case <-time.After(d):
		return true
	case <-ctx.Done():
		return false
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
