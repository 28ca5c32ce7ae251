package transcribe

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
	"github.com/utpl/simulador/backend/internal/testsupport/testclock"
)

const audio = "OggS-audio-de-prueba-que-nunca-debe-cambiar"

type fixture struct {
	dir      string
	store    store.Store
	exams    *exams.Service
	feedback *feedback.Service
	clock    *testclock.Clock
	attempt  domain.Attempt
	student  domain.User
	recID    string
}

// open opens (or, after a simulated crash, reopens) the fixture's database
// file and media directory and wires the services over them, as the
// server does at start.
func (f *fixture) open(t *testing.T) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(f.dir, "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ms, err := media.NewDir(filepath.Join(f.dir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	cat := catalog.NewService(st, false)
	f.store, f.feedback = st, feedback.NewService(st)
	f.exams = exams.NewService(st, cat, groups.NewService(st), ms)
}

// newFixture makes a student with a completed two-chunk recording; the
// completion hook is left to each test.
func newFixture(t *testing.T, hook func(*fixture) func(context.Context, domain.Recording) error) *fixture {
	t.Helper()
	ctx := context.Background()
	f := &fixture{dir: t.TempDir(), clock: testclock.New(time.Now().UTC()), recID: "rec-transcribe-0001"}
	f.open(t)
	st := f.store
	if _, err := catalog.NewService(st, false).ImportDemoBank(ctx); err != nil {
		t.Fatal(err)
	}
	var err error
	f.student = domain.User{ID: "stu", Mail: "est@utpl.edu.ec", DisplayName: "Est", Role: domain.RoleStudent, CreatedAt: time.Now()}
	if err := st.CreateUser(ctx, f.student); err != nil {
		t.Fatal(err)
	}
	if err := st.CreateGroup(ctx, domain.Group{ID: "g", Carrera: "derecho", DocenteEmail: "tutor@utpl.edu.ec", Status: domain.GroupActive,
		CreatedAt: time.Now(), Estudiantes: []domain.GroupStudent{{Email: f.student.Mail, AddedAt: time.Now()}}}); err != nil {
		t.Fatal(err)
	}
	if f.attempt, _, _, err = f.exams.Start(ctx, f.student, exams.StartRequest{Mode: domain.ModeMock}); err != nil {
		t.Fatal(err)
	}
	if hook != nil {
		f.exams.OnRecordingComplete(hook(f))
	}
	// The take belongs to the presentation, which must have started.
	if f.attempt, err = f.exams.Advance(ctx, f.student, f.attempt.ID, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := f.exams.PutRecording(ctx, f.student, f.attempt.ID, f.recID, 1, "audio/webm;codecs=opus"); err != nil {
		t.Fatal(err)
	}
	for i, part := range []string{audio[:10], audio[10:]} {
		if _, err := f.exams.PutChunk(ctx, f.student, f.attempt.ID, f.recID, i, strings.NewReader(part), ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.exams.Complete(ctx, f.student, f.attempt.ID, f.recID, 2, 4000, nil); err != nil {
		t.Fatal(err)
	}
	return f
}

func (f *fixture) worker(t *testing.T, url string, timeout time.Duration) *Worker {
	w := NewWorker(f.store, f.exams, f.feedback, NewClient(Config{URL: url, Model: "whisper-1", Language: "es", Timeout: timeout}),
		slog.New(slog.NewTextHandler(io.Discard, nil)))
	w.SetClock(f.clock.Now)
	return w
}

func (f *fixture) audioIntact(t *testing.T) {
	t.Helper()
	m, _, err := f.exams.OpenRecording(context.Background(), f.attempt.ID, f.recID)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Content.Close()
	got, _ := io.ReadAll(m.Content)
	if string(got) != audio {
		t.Fatalf("audio changed: %q", got)
	}
}

// whisper answers like an OpenAI-compatible server, after checking the
// request is well formed.
func whisper(t *testing.T, behave func(n int32, w http.ResponseWriter) bool) (*httptest.Server, *atomic.Int32) {
	return whisperReq(t, func(n int32, w http.ResponseWriter, _ *http.Request) bool {
		return behave == nil || behave(n, w)
	})
}

// whisperReq is whisper with the request given to behave.
func whisperReq(t *testing.T, behave func(n int32, w http.ResponseWriter, r *http.Request) bool) (*httptest.Server, *atomic.Int32) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if r.URL.Path != "/v1/audio/transcriptions" || r.Method != http.MethodPost {
			http.Error(w, "wrong endpoint", 404)
			return
		}
		if err := r.ParseMultipartForm(1 << 20); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		// The multipart reader may stop before the chunked body's last chunk;
		// the server notices a client hanging up (r.Context ends) only once
		// the body has been read to its end.
		_, _ = io.Copy(io.Discard, r.Body)
		f, _, err := r.FormFile("file")
		if err != nil {
			http.Error(w, "no file", 400)
			return
		}
		body, _ := io.ReadAll(f)
		if string(body) != audio || r.FormValue("model") != "whisper-1" || r.FormValue("response_format") != "verbose_json" || r.FormValue("language") != "es" {
			http.Error(w, "bad request", 400)
			return
		}
		if !behave(n, w, r) {
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"text":"Buenos días señores del tribunal. Artículo 76 de la Constitución.","language":"spanish","duration":4.0,
			"segments":[{"id":0,"start":0.0,"end":2.1,"text":" Buenos días señores del tribunal."},{"id":1,"start":2.1,"end":4.0,"text":" Artículo 76 de la Constitución."}]}`)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func TestTranscriptionSucceeds(t *testing.T) {
	srv, calls := whisper(t, nil)
	var w *Worker
	f := newFixture(t, func(f *fixture) func(context.Context, domain.Recording) error {
		w = f.worker(t, srv.URL, 5*time.Second)
		return w.Enqueue
	})
	// A live browser transcript exists first; the server's replaces it.
	if _, err := f.feedback.SaveTranscript(context.Background(), f.student, f.attempt, f.recID, domain.TranscriptBrowser, "es-EC",
		[]domain.Segment{{StartMs: 0, EndMs: 4000, Text: "buenos dias"}}); err != nil {
		t.Fatal(err)
	}
	worked, err := w.RunOnce(context.Background())
	if !worked || err != nil || calls.Load() != 1 {
		t.Fatalf("RunOnce = %v, %v (calls %d)", worked, err, calls.Load())
	}
	tr, err := f.store.GetTranscript(context.Background(), f.attempt.ID, f.recID)
	if err != nil || tr.Source != domain.TranscriptServer || len(tr.Segments) != 2 || tr.Segments[1].StartMs != 2100 || tr.Segments[1].Text != "Artículo 76 de la Constitución." {
		t.Fatalf("transcript = %+v, %v", tr, err)
	}
	if worked, _ := w.RunOnce(context.Background()); worked {
		t.Fatal("the job ran twice")
	}
	f.audioIntact(t)
}

func TestTimeoutIsRetriedWithBackoff(t *testing.T) {
	srv, calls := whisper(t, func(n int32, w http.ResponseWriter) bool {
		if n == 1 {
			time.Sleep(700 * time.Millisecond) // longer than the client's timeout
		}
		return true
	})
	var w *Worker
	f := newFixture(t, nil)
	w = f.worker(t, srv.URL, 300*time.Millisecond)
	jobs := pendingJob(t, f, w)
	if worked, err := w.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("first run = %v, %v", worked, err)
	}
	j, _ := f.store.GetJob(context.Background(), jobs)
	if j.Status != domain.JobPending || j.Attempts != 1 || !j.NextRunAt.After(f.clock.Now()) || j.LastError == "" {
		t.Fatalf("after a timeout: %+v", j)
	}
	// Not due yet: nothing happens until the backoff has passed.
	if worked, _ := w.RunOnce(context.Background()); worked {
		t.Fatal("retried before the backoff")
	}
	f.clock.Advance(time.Minute)
	if worked, err := w.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("retry = %v, %v", worked, err)
	}
	if j, _ := f.store.GetJob(context.Background(), jobs); j.Status != domain.JobDone || calls.Load() != 2 {
		t.Fatalf("after the retry: %+v, calls %d", j, calls.Load())
	}
	f.audioIntact(t)
}

// pendingJob queues the fixture's recording and returns the job id.
func pendingJob(t *testing.T, f *fixture, w *Worker) string {
	t.Helper()
	r, err := f.store.GetRecording(context.Background(), f.attempt.ID, f.recID)
	if err != nil {
		t.Fatal(err)
	}
	id, err := w.enqueue(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestPermanentFailureKeepsTheAudio(t *testing.T) {
	srv, calls := whisper(t, func(n int32, w http.ResponseWriter) bool {
		http.Error(w, `{"error":"unsupported audio"}`, http.StatusUnprocessableEntity)
		return false
	})
	var w *Worker
	f := newFixture(t, nil)
	w = f.worker(t, srv.URL, 5*time.Second)
	id := pendingJob(t, f, w)
	if worked, err := w.RunOnce(context.Background()); !worked || err != nil {
		t.Fatalf("run = %v, %v", worked, err)
	}
	j, _ := f.store.GetJob(context.Background(), id)
	if j.Status != domain.JobFailed || calls.Load() != 1 || !strings.Contains(j.LastError, "422") {
		t.Fatalf("job = %+v", j)
	}
	if _, err := f.store.GetTranscript(context.Background(), f.attempt.ID, f.recID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a transcript appeared: %v", err)
	}
	f.audioIntact(t)
	// A recording whose job failed for good is not queued again, by its
	// completion hook or by a sweep: retrying forever is not the cure.
	if err := w.Enqueue(context.Background(), mustRecording(t, f)); err != nil {
		t.Fatal(err)
	}
	if n, err := w.Sweep(context.Background()); n != 0 || err != nil {
		t.Fatalf("sweep = %d, %v", n, err)
	}
	if worked, _ := w.RunOnce(context.Background()); worked || calls.Load() != 1 {
		t.Fatalf("a failed recording was sent again (calls %d)", calls.Load())
	}

	// Server errors are retried until the attempts run out, then fail for good.
	srv5, _ := whisper(t, func(n int32, w http.ResponseWriter) bool {
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return false
	})
	f2 := newFixture(t, nil)
	w2 := f2.worker(t, srv5.URL, 5*time.Second)
	w2.MaxAttempts = 3
	id2 := pendingJob(t, f2, w2)
	for range 3 {
		f2.clock.Advance(2 * time.Hour)
		if worked, err := w2.RunOnce(context.Background()); !worked || err != nil {
			t.Fatalf("run = %v, %v", worked, err)
		}
	}
	if j, _ := f2.store.GetJob(context.Background(), id2); j.Status != domain.JobFailed || j.Attempts != 3 {
		t.Fatalf("after 3 server errors: %+v", j)
	}
	f2.audioIntact(t)
}

func mustRecording(t *testing.T, f *fixture) domain.Recording {
	t.Helper()
	r, err := f.store.GetRecording(context.Background(), f.attempt.ID, f.recID)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestShutdownGivesTheJobBack: the server stops (its context ends) while
// transcribing; the job goes back to pending at once, so another instance
// need not wait for the lease to end.
func TestShutdownGivesTheJobBack(t *testing.T) {
	inFlight := make(chan struct{})
	srv, _ := whisperReq(t, func(n int32, w http.ResponseWriter, r *http.Request) bool {
		if n == 1 {
			close(inFlight)
			<-r.Context().Done()
			return false
		}
		return true
	})
	f := newFixture(t, nil)
	w := f.worker(t, srv.URL, time.Minute)
	w.Poll = 10 * time.Millisecond
	id := pendingJob(t, f, w)
	ctx, stop := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { w.Run(ctx); close(stopped) }()
	<-inFlight
	stop()
	<-stopped
	j, err := f.store.GetJob(context.Background(), id)
	if err != nil || j.Status != domain.JobPending || j.Attempts != 1 || j.NextRunAt.After(f.clock.Now()) {
		t.Fatalf("after the shutdown: %+v (err %v), want pending, due now, one attempt", j, err)
	}
}

// TestRestartInTheMiddle: the process dies while the server is
// transcribing. Its worker's request is cut off (its context ends), the
// database is closed and opened again from the same file, and a new
// worker, running its loop as the server does, takes the job over once the
// dead worker's lease has expired. The audio is never touched.
func TestRestartInTheMiddle(t *testing.T) {
	inFlight := make(chan struct{})
	srv, calls := whisperReq(t, func(n int32, w http.ResponseWriter, r *http.Request) bool {
		if n == 1 {
			close(inFlight)
			select { // the first process dies before answering
			case <-r.Context().Done():
			case <-time.After(30 * time.Second):
				t.Error("the first worker's request was not cut off")
			}
			return false
		}
		return true
	})
	f := newFixture(t, nil)
	first := f.worker(t, srv.URL, time.Minute)
	first.Poll = 10 * time.Millisecond
	id := pendingJob(t, f, first)
	ctx, die := context.WithCancel(context.Background())
	stopped := make(chan struct{})
	go func() { first.Run(ctx); close(stopped) }()
	<-inFlight
	// A crash, not a shutdown: the database is gone before the worker
	// learns that its context ended, so it cannot give the job back.
	if err := f.store.Close(); err != nil {
		t.Fatal(err)
	}
	die()
	<-stopped

	// Restart: a new store on the same file, new services, a new worker.
	f.open(t)
	if j, _ := f.store.GetJob(context.Background(), id); j.Status != domain.JobRunning || j.Attempts != 1 {
		t.Fatalf("after the crash: %+v", j)
	}
	restarted := f.worker(t, srv.URL, time.Minute)
	restarted.Poll = 10 * time.Millisecond
	if worked, err := restarted.RunOnce(context.Background()); worked || err != nil {
		t.Fatalf("a leased job was taken before its lease ended: %v, %v", worked, err)
	}
	f.clock.Advance(first.Lease + time.Second)
	ctx2, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { restarted.Run(ctx2); close(done) }()
	defer func() { stop(); <-done }()
	var j domain.Job
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if j, _ = f.store.GetJob(context.Background(), id); j.Status == domain.JobDone {
			break
		}
	}
	if j.Status != domain.JobDone || j.Attempts != 2 || calls.Load() != 2 {
		t.Fatalf("job = %+v, calls %d", j, calls.Load())
	}
	tr, err := f.store.GetTranscript(context.Background(), f.attempt.ID, f.recID)
	if err != nil || tr.Source != domain.TranscriptServer || len(tr.Segments) != 2 {
		t.Fatalf("transcript = %+v, %v", tr, err)
	}
	f.audioIntact(t)
}

// TestEmptyResultKeepsTheLiveTranscript: silence gives no text; the live
// transcript stays and the job is done (not retried).
func TestEmptyResultKeepsTheLiveTranscript(t *testing.T) {
	for name, body := range map[string]string{
		"no text":     `{"text":"","language":"spanish","duration":4.0,"segments":[]}`,
		"blank text":  `{"text":"   ","language":"spanish","duration":4.0}`,
		"blank segs":  `{"text":" ","segments":[{"id":0,"start":0.0,"end":4.0,"text":"  "}]}`,
		"no segments": `{"language":"spanish"}`,
	} {
		t.Run(name, func(t *testing.T) {
			srv, calls := whisper(t, func(n int32, w http.ResponseWriter) bool {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, body)
				return false
			})
			f := newFixture(t, nil)
			w := f.worker(t, srv.URL, 5*time.Second)
			live := []domain.Segment{{StartMs: 0, EndMs: 4000, Text: "buenos días señores del tribunal"}}
			if _, err := f.feedback.SaveTranscript(context.Background(), f.student, f.attempt, f.recID, domain.TranscriptBrowser, "es-EC", live); err != nil {
				t.Fatal(err)
			}
			id := pendingJob(t, f, w)
			if worked, err := w.RunOnce(context.Background()); !worked || err != nil || calls.Load() != 1 {
				t.Fatalf("run = %v, %v (calls %d)", worked, err, calls.Load())
			}
			if j, _ := f.store.GetJob(context.Background(), id); j.Status != domain.JobDone {
				t.Fatalf("job = %+v", j)
			}
			tr, err := f.store.GetTranscript(context.Background(), f.attempt.ID, f.recID)
			if err != nil || tr.Source != domain.TranscriptBrowser || tr.Text() != live[0].Text {
				t.Fatalf("live transcript replaced: %+v, %v", tr, err)
			}
			f.audioIntact(t)
		})
	}
}

// TestSweepQueuesLostJobs: the recording was completed but its job was
// never queued (the process died in between, or queueing failed). The
// worker finds it when it starts and transcribes it; a recording queued
// meanwhile by its hook is not queued twice.
func TestSweepQueuesLostJobs(t *testing.T) {
	srv, calls := whisper(t, nil)
	f := newFixture(t, nil) // no completion hook: the job is lost
	w := f.worker(t, srv.URL, 5*time.Second)
	w.Poll = 10 * time.Millisecond
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { w.Run(ctx); close(done) }()
	var tr domain.Transcript
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got, err := f.store.GetTranscript(context.Background(), f.attempt.ID, f.recID); err == nil && got.Source == domain.TranscriptServer {
			tr = got
			break
		}
	}
	stop()
	<-done
	if tr.Source != domain.TranscriptServer || calls.Load() != 1 {
		t.Fatalf("transcript = %+v, calls %d", tr, calls.Load())
	}
	// Done: later sweeps and a late hook leave it alone.
	if n, err := w.Sweep(context.Background()); n != 0 || err != nil {
		t.Fatalf("second sweep = %d, %v", n, err)
	}
	if err := w.Enqueue(context.Background(), mustRecording(t, f)); err != nil {
		t.Fatalf("late hook: %v", err)
	}
	if worked, _ := w.RunOnce(context.Background()); worked {
		t.Fatal("the recording was queued twice")
	}
	f.audioIntact(t)
}

func TestCorrectionsAreNeverReplaced(t *testing.T) {
	srv, _ := whisper(t, nil)
	var w *Worker
	f := newFixture(t, nil)
	w = f.worker(t, srv.URL, 5*time.Second)
	pendingJob(t, f, w)
	if _, err := f.feedback.SaveTranscript(context.Background(), f.student, f.attempt, f.recID, domain.TranscriptEdited, "es-EC",
		[]domain.Segment{{StartMs: 0, EndMs: 4000, Text: "Texto corregido por el estudiante."}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.RunOnce(context.Background()); err != nil {
		t.Fatal(err)
	}
	tr, _ := f.store.GetTranscript(context.Background(), f.attempt.ID, f.recID)
	if tr.Source != domain.TranscriptEdited || tr.Text() != "Texto corregido por el estudiante." {
		t.Fatalf("correction replaced: %+v", tr)
	}
}

func TestEndpoint(t *testing.T) {
	for in, want := range map[string]string{
		"http://whisper:8000":                             "http://whisper:8000/v1/audio/transcriptions",
		"http://whisper:8000/":                            "http://whisper:8000/v1/audio/transcriptions",
		"http://whisper:8000/v1":                          "http://whisper:8000/v1/audio/transcriptions",
		"https://api.example.com/v1/audio/transcriptions": "https://api.example.com/v1/audio/transcriptions",
	} {
		if got := (Config{URL: in}).Endpoint(); got != want {
			t.Errorf("Endpoint(%s) = %s, want %s", in, got, want)
		}
	}
}
