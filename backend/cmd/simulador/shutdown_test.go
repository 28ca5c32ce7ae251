package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
	"github.com/utpl/simulador/backend/internal/transcribe"
)

// apiClient calls the server as one signed-in user.
type apiClient struct {
	t      *testing.T
	base   string
	cookie string
}

func (c *apiClient) do(method, path string, body io.Reader, header map[string]string) (int, []byte, error) {
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		return 0, nil, err
	}
	if c.cookie != "" {
		req.Header.Set("Cookie", c.cookie)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if c.cookie == "" {
		for _, ck := range res.Cookies() {
			if ck.Name == "__Host-simulador_session" {
				c.cookie = ck.Name + "=" + ck.Value
			}
		}
	}
	return res.StatusCode, b, err
}

// mustJSON sends v and wants one of the statuses.
func (c *apiClient) mustJSON(method, path string, v any, want int) []byte {
	c.t.Helper()
	b, _ := json.Marshal(v)
	code, body, err := c.do(method, path, bytes.NewReader(b), map[string]string{"Content-Type": "application/json"})
	if err != nil || code != want {
		c.t.Fatalf("%s %s: %d %s (err %v), want %d", method, path, code, body, err, want)
	}
	return body
}

func chunkBytes(rec string, seq int) []byte {
	return bytes.Repeat([]byte(fmt.Sprintf("%s-%04d|", rec, seq)), 700) // ~8 kB, like 2 s of Opus
}

func shaHex(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// TestShutdownFinishesUploadsAndGivesBackJobs stops the server the way
// Cloud Run does (SIGTERM: the context main derives from the signal ends)
// while students upload chunks and a transcription job is being worked
// on. Every chunk acknowledged is stored, an upload under way at the
// signal is finished and acknowledged, the job is pending again for
// another instance, and the server is gone within Cloud Run's 10 s.
func TestShutdownFinishesUploadsAndGivesBackJobs(t *testing.T) {
	dir := cliEnv(t)
	t.Setenv("ADDR", "127.0.0.1:0")
	// A transcription server that holds every request until its client
	// gives up: the job is in the worker's hands when the signal comes.
	transcribing := make(chan struct{}, 10)
	whisper := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		transcribing <- struct{}{}
		<-r.Context().Done()
	})}
	wl, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go whisper.Serve(wl)
	defer whisper.Close()
	t.Setenv("TRANSCRIBE_URL", "http://"+wl.Addr().String()+"/v1/audio/transcriptions")

	mustIn(t, "una-clave-segura\n", "users", "create", "--email", "tutora@utpl.edu.ec", "--role", "tutor")
	mustIn(t, "una-clave-segura\n", "users", "create", "--email", "ana@utpl.edu.ec", "--role", "estudiante")
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "simulador.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := st.CreateGroup(ctx, domain.Group{ID: "g1", Carrera: "derecho", DocenteEmail: "tutora@utpl.edu.ec", Status: domain.GroupActive,
		Estudiantes: []domain.GroupStudent{{Email: "ana@utpl.edu.ec", AddedAt: time.Now()}}, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}

	serverCtx, sigterm := context.WithCancel(ctx)
	defer sigterm()
	addrc := make(chan net.Addr, 1)
	serving = func(addr net.Addr) { addrc <- addr }
	defer func() { serving = nil }()
	exited := make(chan result, 1)
	go func() {
		var out, errOut bytes.Buffer
		code := cli(serverCtx, []string{"serve"}, strings.NewReader(""), &out, &errOut)
		exited <- result{code: code, stdout: out.String(), stderr: errOut.String()}
	}()
	var base string
	select {
	case addr := <-addrc:
		base = "http://" + addr.String()
	case r := <-exited:
		t.Fatalf("the server did not start: %d\n%s", r.code, r.stderr)
	}

	ana := &apiClient{t: t, base: base}
	ana.mustJSON(http.MethodPost, "/api/auth/login", map[string]string{"email": "ana@utpl.edu.ec", "password": "una-clave-segura"}, http.StatusOK)
	var attempt struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(ana.mustJSON(http.MethodPost, "/api/attempts", map[string]string{"mode": "simulacro"}, http.StatusCreated), &attempt)
	ana.mustJSON(http.MethodPost, "/api/attempts/"+attempt.ID+"/advance", map[string]int{"from": 0}, http.StatusOK)
	recPath := func(rid string) string { return "/api/attempts/" + attempt.ID + "/recordings/" + rid }
	putChunk := func(rid string, seq int, body io.Reader, sum string) (int, error) {
		code, _, err := ana.do(http.MethodPut, fmt.Sprintf("%s/chunks/%d", recPath(rid), seq), body,
			map[string]string{"Content-Type": "application/octet-stream", "X-Chunk-SHA256": sum})
		return code, err
	}

	// A first take, completed: its transcription job is claimed and held.
	ana.mustJSON(http.MethodPut, recPath("toma-0001"), map[string]any{"phase": 1, "mimeType": "audio/webm;codecs=opus"}, http.StatusOK)
	for seq := range 3 {
		if code, err := putChunk("toma-0001", seq, bytes.NewReader(chunkBytes("toma-0001", seq)), shaHex(chunkBytes("toma-0001", seq))); code != http.StatusOK {
			t.Fatalf("chunk %d of the first take: %d %v", seq, code, err)
		}
	}
	ana.mustJSON(http.MethodPost, recPath("toma-0001")+"/complete", map[string]any{"chunks": 3, "durationMs": 6000}, http.StatusOK)
	select {
	case <-transcribing:
	case <-time.After(15 * time.Second):
		t.Fatal("the transcription job was not claimed")
	}

	// A second take being uploaded by several connections at once, and
	// one chunk whose body is only half sent when the signal comes.
	ana.mustJSON(http.MethodPut, recPath("toma-0002"), map[string]any{"phase": 1, "mimeType": "audio/webm;codecs=opus"}, http.StatusOK)
	const slowSeq = 1000
	slowBody, slowWriter := io.Pipe()
	slowData := chunkBytes("toma-0002", slowSeq)
	slowDone := make(chan int, 1)
	go func() {
		code, err := putChunk("toma-0002", slowSeq, slowBody, shaHex(slowData))
		if err != nil {
			t.Logf("the slow chunk: %v", err)
		}
		slowDone <- code
	}()
	if _, err := slowWriter.Write(slowData[:len(slowData)/2]); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	acked := map[int]bool{}
	var uploaders sync.WaitGroup
	stop := make(chan struct{})
	const conns = 6
	for g := range conns {
		uploaders.Go(func() {
			for seq := g; ; seq += conns {
				select {
				case <-stop:
					return
				default:
				}
				data := chunkBytes("toma-0002", seq)
				code, err := putChunk("toma-0002", seq, bytes.NewReader(data), shaHex(data))
				if err != nil {
					return // the server stopped listening
				}
				if code == http.StatusOK {
					mu.Lock()
					acked[seq] = true
					mu.Unlock()
				}
			}
		})
	}
	// Uploads under way: wait until two have been acknowledged (however
	// long a busy machine takes), so the signal comes mid-stream.
	for {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	signalled := time.Now()
	sigterm()
	// The rest of the half-sent chunk arrives after the signal.
	time.Sleep(200 * time.Millisecond)
	if _, err := slowWriter.Write(slowData[len(slowData)/2:]); err != nil {
		t.Fatalf("the server cut an upload under way: %v", err)
	}
	slowWriter.Close()

	var r result
	select {
	case r = <-exited:
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not exit within 15 s of the signal")
	}
	took := time.Since(signalled)
	close(stop)
	uploaders.Wait()
	if r.code != 0 {
		t.Fatalf("serve exited %d:\n%s", r.code, r.stderr)
	}
	// The server's own grace (shutdownGrace, 9 s) is what keeps it inside
	// Cloud Run's 10 s; how long it took is logged, not asserted, since a
	// loaded machine only slows the exit after that grace.
	t.Logf("the server stopped %s after the signal", took)
	if code := <-slowDone; code != http.StatusOK {
		t.Errorf("the chunk being uploaded at the signal got %d, want 200 (finished and acknowledged)", code)
	} else {
		acked[slowSeq] = true
	}
	if len(acked) < 2 {
		t.Fatalf("only %d chunks were acknowledged: the test did not keep uploads in flight", len(acked))
	}

	// Every acknowledged chunk is recorded and its bytes are stored.
	stored, err := st.ListChunks(ctx, attempt.ID, "toma-0002")
	if err != nil {
		t.Fatal(err)
	}
	bySeq := map[int]domain.ChunkInfo{}
	for _, c := range stored {
		bySeq[c.Seq] = c
	}
	dirMedia, err := media.NewDir(filepath.Join(dir, "media"))
	if err != nil {
		t.Fatal(err)
	}
	for seq := range acked {
		c, ok := bySeq[seq]
		if !ok || c.SHA256 != shaHex(chunkBytes("toma-0002", seq)) {
			t.Errorf("acknowledged chunk %d is not stored (%+v)", seq, c)
			continue
		}
		// Read it back alone: a staged chunk must equal its bytes.
		stage, err := dirMedia.Stage(bytes.NewReader(chunkBytes("toma-0002", seq)), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if err := dirMedia.Commit(ctx, stage, attempt.ID+"/toma-2", seq); err != nil {
			t.Errorf("chunk %d on disk differs from what was acknowledged: %v", seq, err)
		}
	}
	t.Logf("%d chunks acknowledged (one of them sent across the signal); the server stopped %s after it", len(acked), took.Round(time.Millisecond))

	// The job the worker held is pending again, due now: the next
	// instance's worker claims it at once, without waiting for the lease.
	now := time.Now()
	job, err := st.ClaimJob(ctx, transcribe.JobKind, now, now.Add(time.Minute))
	if err != nil {
		t.Fatalf("the job held at shutdown is not claimable: %v\n%s", err, r.stderr)
	}
	if !strings.Contains(job.LastError, "shutdown") {
		t.Errorf("job %+v does not say it was given back at shutdown", job)
	}
	if !strings.Contains(r.stderr, "transcription job given back at shutdown") {
		t.Errorf("the log does not say the job was given back:\n%s", r.stderr)
	}
}
